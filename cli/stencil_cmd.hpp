// `tessera stencil IN.raw OUT.raw --nx --ny --nz --sweeps N`: Jacobi sweeps of
// the 7-point stencil on a raw little-endian grid (tessera::stencil7), the
// result written atomically, the time and G cells/s printed. docs/cli.md
// ("tessera stencil").
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

namespace tessera::cli {

struct StencilArgs {
  std::string in, out;
  std::size_t nx = 0, ny = 0, nz = 0;
  int sweeps = 1;
  double c0 = 0.0;        // the Jacobi iteration of Laplace's equation: the
  double c1 = 1.0 / 6.0;  // average of the six neighbours
  std::string type = "float";
  std::string variant;    // empty: the API's pick
  int repeat = 3;
};

CLI::App* add_stencil_command(CLI::App& app, StencilArgs& args);
int stencil_cmd(const StencilArgs& args);

}  // namespace tessera::cli
