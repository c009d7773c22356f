// `tessera conv IN.raw OUT.raw --width W --height H --mask MASK.txt`: 2D
// convolution of a raw little-endian float32 image with a mask read from a
// text file, zero outside the image; the result written atomically, with
// the time and GPixels/s. docs/cli.md ("tessera conv").
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace tessera::cli {

struct ConvArgs {
  std::string in, out, mask;
  std::size_t width = 0, height = 0;
  std::string variant;  // empty: the API's pick
  int repeat = 10;
};

CLI::App* add_conv_command(CLI::App& app, ConvArgs& args);
int conv_cmd(const ConvArgs& args);

// A mask text file: rows of whitespace-separated numbers (blank lines and
// lines starting with '#' skipped), every row as long as the first, an odd
// number of rows and of columns, every number finite. Throws UsageError
// naming the file and the line.
struct MaskFile {
  std::size_t width = 0, height = 0;
  std::vector<float> taps;  // row-major
};
MaskFile read_mask_file(const std::string& path);

}  // namespace tessera::cli
