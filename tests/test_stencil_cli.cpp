// `tessera stencil` through the built binary: the written grid equals the
// library's answer (the definition within rounding, boundary bits kept), the
// time and GCells/s line, 0 sweeps copying, and every bad input refused with
// exit 2, a message naming the argument or file with its value, and no output
// file (an existing one kept as it was).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "matrix_market_test_support.hpp"
#include "stencil7_test_support.hpp"
#include "test_support.hpp"
#include "traces_cli_support.hpp"

namespace {

using mm_test::ScratchDir;
using stencil7_test::Grid;
using tessera_test::has_substr;
using traces_test::CliResult;
using traces_test::run_cli;

template <class T>
void write_raw(const std::string& path, const std::vector<T>& v) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
}

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

template <class T>
std::vector<T> read_raw(const std::string& path) {
  const std::string b = read_bytes(path);
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

class StencilCli : public ::testing::Test {
 protected:
  ScratchDir d, logs;
  std::string in = d.path("in.raw"), out = d.path("out.raw"), log = logs.path("log");

  CliResult run(std::vector<std::string> args) {
    args.insert(args.begin(), "stencil");
    return run_cli(args, log);
  }
  std::vector<std::string> dims(const Grid& g) {
    return {"--nx", std::to_string(g.nx), "--ny", std::to_string(g.ny), "--nz", std::to_string(g.nz)};
  }
};

TEST_F(StencilCli, FloatSweepsMatchTheDefinition) {
  const Grid g{37, 19, 23};
  const std::vector<float> grid = stencil7_test::random_grid<float>(g, 4);
  write_raw(in, grid);
  std::vector<std::string> args{in, out, "--sweeps", "5", "--c0", "-0.25", "--c1", "0.125", "--repeat", "1"};
  for (const auto& s : dims(g)) args.push_back(s);
  const CliResult r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "GCells/s")) << r.output;
  EXPECT_TRUE(has_substr(r.output, "37 x 19 x 23, 5 sweeps")) << r.output;
  const std::vector<float> got = read_raw<float>(out);
  ASSERT_EQ(got.size(), g.cells());
  stencil7_test::expect_matches(got, stencil7_test::expected(grid, g, 5, -0.25, 0.125), grid, g, 5, "tessera stencil");
  EXPECT_EQ(d.entries(), 2u);  // in and out: no temporary left
}

TEST_F(StencilCli, DoubleDefaultCoefficientsAndZeroSweeps) {
  const Grid g{9, 8, 7};
  const std::vector<double> grid = stencil7_test::random_grid<double>(g, 8);
  write_raw(in, grid);
  std::vector<std::string> args{in, out, "--sweeps", "3", "--type", "double"};
  for (const auto& s : dims(g)) args.push_back(s);
  const CliResult r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Defaults: c0 = 0, c1 = 1/6, the Jacobi iteration of Laplace's equation.
  stencil7_test::expect_matches(read_raw<double>(out), stencil7_test::expected(grid, g, 3, 0.0, 1.0 / 6.0), grid, g,
                                3, "defaults");
  args[3] = "0";
  ASSERT_EQ(run(args).exit_code, 0);
  EXPECT_EQ(read_bytes(out), read_bytes(in));  // 0 sweeps: a copy
}

// Each bad input: exit 2, the message, and the existing output untouched.
TEST_F(StencilCli, BadInputRefusedNothingWritten) {
  const Grid g{6, 5, 4};
  write_raw(in, stencil7_test::random_grid<float>(g, 1));
  const std::string before = "previous contents";
  std::ofstream(out) << before;
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const Bad cases[] = {
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "5", "--sweeps", "1"}, "holds 480 bytes, but a 6 x 5 x 5 grid of float needs 600 bytes"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "1", "--type", "double"}, "needs 960 bytes"},
      {{in, out, "--nx", "2", "--ny", "5", "--nz", "4", "--sweeps", "1"}, "--nx 2"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "1", "--sweeps", "1"}, "--nz 1"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "-2"}, "--sweeps -2"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "1", "--c0", "nan"}, "--c0 nan"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "1", "--c1", "inf"}, "--c1 inf"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "1", "--type", "half"}, "--type half"},
      {{in, out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "1", "--variant", "nope"}, "--variant nope"},
      {{d.path("missing.raw"), out, "--nx", "6", "--ny", "5", "--nz", "4", "--sweeps", "1"}, "missing.raw"},
  };
  for (const Bad& b : cases) {
    const CliResult r = run(b.args);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has_substr(r.output, b.message)) << r.output;
    EXPECT_EQ(read_bytes(out), before) << b.message;
  }
  EXPECT_EQ(d.entries(), 2u);  // no temporary left behind
}

}  // namespace
