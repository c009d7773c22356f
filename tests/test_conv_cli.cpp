// `tessera conv` through the built binary: the output equals the definition
// computed here (read back from OUT), the time and GPixels/s are printed, a
// separable mask is named, and every bad input (image size, mask file
// syntax with its line number, even sizes, non-finite numbers, a mask wider
// than the image, a bad variant or option) is refused with exit 2, its
// message, and no file written (an existing OUT kept as it was).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "conv_test_support.hpp"
#include "matrix_market_test_support.hpp"
#include "test_support.hpp"
#include "traces_cli_support.hpp"

namespace {

using mm_test::ScratchDir;
using tessera_test::has_substr;
using traces_test::run_cli;

void write_floats(const std::string& path, const std::vector<float>& v) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * 4));
}

std::vector<float> read_floats(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  const auto bytes = static_cast<std::size_t>(f.tellg());
  std::vector<float> v(bytes / 4);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(v.data()), std::streamsize(bytes));
  return v;
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string mask_text(const std::vector<float>& m, std::size_t w) {
  std::ostringstream s;
  s.precision(9);
  s << "# a mask\n\n";
  for (std::size_t i = 0; i < m.size(); ++i) s << m[i] << (i % w == w - 1 ? "\n" : "  \t");
  return s.str();
}

TEST(ConvCli, WritesTheConvolution) {
  ScratchDir dir;
  const std::size_t w = 37, h = 23;
  const auto img = conv_test::random_floats(w * h, 1);
  const auto mask = conv_test::random_floats(5 * 3, 2);  // 5 wide, 3 tall
  write_floats(dir.path("in.raw"), img);
  write_text(dir.path("mask.txt"), mask_text(mask, 5));
  const auto r = run_cli({"conv", dir.path("in.raw"), dir.path("out.raw"), "--width", "37", "--height", "23", "--mask",
                          dir.path("mask.txt"), "--repeat", "2"},
                         dir.path("log"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "GPixels/s"));
  EXPECT_TRUE(has_substr(r.output, "37 x 23 image, 5 x 3 mask"));
  EXPECT_FALSE(has_substr(r.output, "(separable)"));
  const auto out = read_floats(dir.path("out.raw"));
  ASSERT_EQ(out.size(), w * h);
  conv_test::expect_close(out, w, h, w, conv_test::expected(img, w, h, w, mask, 5, 3), 15, "tessera conv");
}

TEST(ConvCli, SeparableMaskAndNamedVariant) {
  ScratchDir dir;
  const auto img = conv_test::random_floats(64 * 40, 3);
  const auto mask = conv_test::outer(conv_test::random_floats(7, 4), conv_test::random_floats(7, 5));
  write_floats(dir.path("in.raw"), img);
  write_text(dir.path("mask.txt"), mask_text(mask, 7));
  const auto r = run_cli({"conv", dir.path("in.raw"), dir.path("out.raw"), "--width", "64", "--height", "40", "--mask",
                          dir.path("mask.txt"), "--variant", "cpu_reference", "--repeat", "1"},
                         dir.path("log"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "(separable)"));
  EXPECT_TRUE(has_substr(r.output, "variant cpu_reference"));
  conv_test::expect_close(read_floats(dir.path("out.raw")), 64, 40, 64, conv_test::expected(img, 64, 40, 64, mask, 7, 7),
                          49, "tessera conv separable");
}

struct BadCase {
  std::string mask;                 // the mask file's text
  std::vector<std::string> extra;   // options replacing --width 8 --height 6
  std::size_t image_floats;         // floats in in.raw
  std::string message;
};

TEST(ConvCli, BadInputsWriteNothing) {
  const BadCase cases[] = {
      {"1 2 1\n", {}, 47, "in.raw: 188 bytes, but --width 8 x --height 6 float32 pixels are 192 bytes"},
      {"1 2 1\n2 4 2\n1 x1 1\n", {}, 48, "line 3: 'x1' is not a number"},
      {"# c\n1 2 1\n2 4\n1 2 1\n", {}, 48, "line 3: 2 numbers, but the first row (line 2) has 3"},
      {"1 2 2 1\n", {}, 48, "4 columns: a mask needs an odd width"},
      {"1 2 1\n1 2 1\n", {}, 48, "2 rows: a mask needs an odd height"},
      {"nan 1 1\n", {}, 48, "line 1: 'nan' is not a finite float"},
      {"1 1 1e39\n", {}, 48, "line 1: '1e39' is not a finite float"},
      {"\n# only comments\n", {}, 48, "no rows of numbers"},
      {"1 1 1 1 1 1 1 1 1\n", {}, 48, "9 columns, wider than the image (--width 8)"},
      {"1\n1\n1\n1\n1\n1\n1\n", {}, 48, "7 rows, taller than the image (--height 6)"},
      {"1 2 1\n", {"--width", "0", "--height", "6"}, 48, "--width"},
      {"1 2 1\n", {"--width", "8", "--height", "6", "--variant", "no_such"}, 48, "no variant named 'no_such'"},
      {"1 2 1\n", {"--width", "8", "--height", "6", "--variant", "fft_overlap_save"}, 48, "fft_overlap_save"},
  };
  for (const auto& c : cases) {
    ScratchDir dir;
    write_floats(dir.path("in.raw"), conv_test::random_floats(c.image_floats, 9));
    write_text(dir.path("mask.txt"), c.mask);
    write_text(dir.path("old.raw"), "keep me");
    std::vector<std::string> args{"conv", dir.path("in.raw"), dir.path("old.raw"), "--mask", dir.path("mask.txt")};
    if (c.extra.empty()) args.insert(args.end(), {"--width", "8", "--height", "6"});
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const auto r = run_cli(args, dir.path("log"));
    EXPECT_EQ(r.exit_code, 2) << c.message << "\n" << r.output;
    EXPECT_TRUE(has_substr(r.output, c.message)) << r.output;
    std::ifstream old(dir.path("old.raw"));
    std::string kept;
    std::getline(old, kept);
    EXPECT_EQ(kept, "keep me") << c.message;
    EXPECT_EQ(dir.entries(), 4u) << c.message << ": a temporary or output was left";  // in, mask, old, log
  }
  // A missing mask file and a missing image are named.
  ScratchDir dir;
  write_floats(dir.path("in.raw"), conv_test::random_floats(48, 9));
  auto r = run_cli({"conv", dir.path("in.raw"), dir.path("out.raw"), "--width", "8", "--height", "6", "--mask",
                    dir.path("none.txt")},
                   dir.path("log"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has_substr(r.output, "none.txt: cannot open"));
  write_text(dir.path("mask.txt"), "1\n");
  r = run_cli({"conv", dir.path("nothing.raw"), dir.path("out.raw"), "--width", "8", "--height", "6", "--mask",
               dir.path("mask.txt")},
              dir.path("log"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has_substr(r.output, "nothing.raw: cannot read"));
  EXPECT_FALSE(std::ifstream(dir.path("out.raw")).good());
}

// cuFFT is loaded on the first FFT call, not at start-up: `tessera --help`
// and `tessera conv` (2D, no FFT rung) never map libcufft (the dynamic
// loader's LD_DEBUG=libs trace names every library it loads).
TEST(ConvCli, CufftIsNotLoadedAtStartUp) {
  ScratchDir dir;
  auto r = run_cli({"--help"}, dir.path("log"), {"LD_DEBUG=libs"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "conv"));
  EXPECT_FALSE(has_substr(r.output, "libcufft")) << "tessera --help loaded cuFFT";
  write_floats(dir.path("in.raw"), conv_test::random_floats(16 * 16, 1));
  write_text(dir.path("mask.txt"), "1 2 1\n2 4 2\n1 2 1\n");
  r = run_cli({"conv", dir.path("in.raw"), dir.path("out.raw"), "--width", "16", "--height", "16", "--mask",
               dir.path("mask.txt"), "--repeat", "1"},
              dir.path("log"), {"LD_DEBUG=libs"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(has_substr(r.output, "libcufft")) << "tessera conv (2D) loaded cuFFT";
}

}  // namespace
