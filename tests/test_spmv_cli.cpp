// `tessera spmv` through the built binary: symmetric and pattern files read
// as the format says, y equal to a plain product of the file's entries
// (written with --out and read back), the row statistics, each format's row
// checked, and every bad input refused with exit 2, its message, and no file
// written (an existing --out kept as it was).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/gpu_present.hpp"
#include "matrix_market_test_support.hpp"
#include "test_support.hpp"
#include "traces_cli_support.hpp"

namespace {

using mm_test::ScratchDir;
using tessera_test::has_substr;
using traces_test::CliResult;
using traces_test::run_cli;

// Entries (1-based row, col, value) as written in a coordinate file.
struct Entry {
  int row, col;
  double val;
};

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string read_text(const std::string& path) {
  std::stringstream ss;
  ss << std::ifstream(path).rdbuf();
  return ss.str();
}

std::string coordinate(const std::string& banner, int rows, int cols, const std::vector<Entry>& e, bool pattern) {
  std::string s = "%%MatrixMarket matrix coordinate " + banner + "\n% generated\n";
  s += std::to_string(rows) + " " + std::to_string(cols) + " " + std::to_string(e.size()) + "\n";
  char line[96];
  for (const Entry& x : e) {
    if (pattern)
      std::snprintf(line, sizeof line, "%d %d\n", x.row, x.col);
    else
      std::snprintf(line, sizeof line, "%d %d %.17g\n", x.row, x.col, x.val);
    s += line;
  }
  return s;
}

std::string array(const std::vector<double>& v) {
  std::string s = "%%MatrixMarket matrix array real general\n" + std::to_string(v.size()) + " 1\n";
  char line[48];
  for (double x : v) {
    std::snprintf(line, sizeof line, "%.17g\n", x);
    s += line;
  }
  return s;
}

// y = A x from the entries as the file means them: mirrored when symmetric,
// every entry added (duplicates sum).
std::vector<double> product(int rows, const std::vector<Entry>& e, const std::vector<double>& x, bool symmetric) {
  std::vector<double> y(std::size_t(rows), 0.0);
  for (const Entry& t : e) {
    y[std::size_t(t.row - 1)] += t.val * x[std::size_t(t.col - 1)];
    if (symmetric && t.row != t.col) y[std::size_t(t.col - 1)] += t.val * x[std::size_t(t.row - 1)];
  }
  return y;
}

std::vector<double> read_y(const std::string& path) {
  const auto d = tessera::mm::read_array<double>(path);
  EXPECT_EQ(d.cols, 1);
  return d.values;
}

class SpmvCli : public ::testing::Test {
 protected:
  ScratchDir d, logs;
  std::string a = d.path("a.mtx"), xf = d.path("x.mtx"), y = d.path("y.mtx"), log = logs.path("log");
  std::mt19937 rng{2511};

  double uniform() { return std::uniform_real_distribution<double>(-1, 1)(rng); }
  std::vector<double> random_vector(int n) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = uniform();
    return v;
  }
  CliResult run(std::vector<std::string> args) {
    args.insert(args.begin(), "spmv");
    return run_cli(args, log);
  }
};

// The lower triangle of a random symmetric 40 x 40 (diagonal and 3 entries a
// row below it), in double: y is the expanded product to rounding.
TEST_F(SpmvCli, SymmetricFileIsExpanded) {
  const int n = 40;
  std::vector<Entry> e;
  for (int r = 1; r <= n; ++r) {
    e.push_back({r, r, 4 + uniform()});
    for (int k = 0; k < 3 && r > 1; ++k) e.push_back({r, 1 + int(rng() % unsigned(r - 1)), uniform()});
  }
  write_text(a, coordinate("real symmetric", n, n, e, false));
  const std::vector<double> x = random_vector(n);
  write_text(xf, array(x));
  const CliResult r = run({a, "--x", xf, "--out", y, "--type", "double", "--repeat", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "coordinate real symmetric")) << r.output;
  EXPECT_TRUE(has_substr(r.output, std::to_string(e.size()) + " stored entries expanded")) << r.output;
  const std::vector<double> want = product(n, e, x, true), got = read_y(y);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * (1 + std::fabs(want[i]))) << i;
}

// A pattern file (every entry 1, a duplicate entry counts twice) in float,
// rectangular, with empty rows; x from a file.
TEST_F(SpmvCli, PatternFileHasUnitValues) {
  const int rows = 25, cols = 17;
  std::vector<Entry> e;
  for (int k = 0; k < 60; ++k) e.push_back({1 + int(rng() % 20), 1 + int(rng() % cols), 1.0});  // rows 21-25 empty
  e.push_back(e.front());                                                                        // a duplicate: 2
  write_text(a, coordinate("pattern general", rows, cols, e, true));
  const std::vector<double> x = random_vector(cols);
  write_text(xf, array(x));
  const CliResult r = run({a, "--x", xf, "--out", y, "--repeat", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "values as float")) << r.output;
  const std::vector<double> want = product(rows, e, x, false), got = read_y(y);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
  for (int i = 20; i < rows; ++i) EXPECT_EQ(got[std::size_t(i)], 0.0);
}

// Without --x, x is all ones: y holds the row sums. --out replaces a file
// already there.
TEST_F(SpmvCli, DefaultXIsOnesAndOutReplaces) {
  const std::vector<Entry> e = {{1, 1, 2.5}, {1, 3, -1}, {3, 2, 0.25}, {3, 3, 4}};
  write_text(a, coordinate("real general", 3, 3, e, false));
  write_text(y, "old contents\n");
  const CliResult r = run({a, "--out", y, "--repeat", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_y(y), (std::vector<double>{1.5, 0, 4.25}));
  EXPECT_TRUE(has_substr(r.output, "x        all ones")) << r.output;
}

// Row lengths 0, 2 and 4: mean 2, max 4, cv sqrt(8/3)/2, one empty row.
TEST_F(SpmvCli, RowStatistics) {
  const std::vector<Entry> e = {{2, 1, 1}, {2, 2, 1}, {3, 1, 1}, {3, 2, 1}, {3, 3, 1}, {3, 4, 1}};
  write_text(a, coordinate("real general", 3, 4, e, false));
  const CliResult r = run({a, "--repeat", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "mean 2.00, max 4, coefficient of variation 0.816, 1 empty (33.33 %)")) << r.output;
}

// Every selected variant's row says ok; without a GPU the CPU variants ran
// and each format's footprint was printed from its host conversion.
TEST_F(SpmvCli, EveryFormatChecked) {
  std::vector<Entry> e;
  for (int r = 1; r <= 300; ++r)
    for (int k = 0; k < 1 + int(rng() % 40); ++k) e.push_back({r, 1 + int(rng() % 300), uniform()});
  write_text(a, coordinate("real general", 300, 300, e, false));
  for (const char* type : {"float", "double"}) {
    const CliResult r = run({a, "--type", type, "--repeat", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_FALSE(has_substr(r.output, "WRONG")) << r.output;
    EXPECT_TRUE(has_substr(r.output, "api      tessera::spmv with default options ran")) << r.output;
    if (tessera::api::gpu_present()) {
      for (const char* v : {"csr_scalar", "csr_vector", "ell", "coo_atomic", "coo_segmented", "hyb", "jds",
                            "jds_ell_sections", "csr_nnz_split", "sell_c_sigma", "cusparse_spmv"})
        EXPECT_TRUE(has_substr(r.output, v)) << v << "\n" << r.output;
    } else {
      EXPECT_TRUE(has_substr(r.output, "no GPU found")) << r.output;
      for (const char* f : {"cpu_reference", "cpu_openmp", "\ncoo ", "\nell ", "\nhyb ", "\njds ", "sell_c_sigma"})
        EXPECT_TRUE(has_substr(r.output, f)) << f << "\n" << r.output;
    }
  }
}

// Refusals: exit 2, the problem named, nothing written and an existing --out
// left as it was.
class SpmvCliRefusal : public SpmvCli {
 protected:
  void expect_refused(const std::vector<std::string>& args, const std::string& message) {
    write_text(y, "keep me\n");
    std::vector<std::string> with_out = args;
    with_out.insert(with_out.end(), {"--out", y});
    const CliResult r = run(with_out);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has_substr(r.output, message)) << r.output;
    EXPECT_FALSE(has_substr(r.output, "variant ")) << "ran before refusing:\n" << r.output;
    EXPECT_EQ(read_text(y), "keep me\n");
    for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(y).parent_path()))
      EXPECT_FALSE(f.path().filename().string().starts_with("y.mtx.")) << "left behind: " << f.path();
  }
  void write_good() { write_text(a, coordinate("real general", 4, 4, {{1, 1, 1}, {4, 2, 2}}, false)); }
};

TEST_F(SpmvCliRefusal, MissingFile) { expect_refused({d.path("none.mtx")}, "none.mtx: cannot open"); }

TEST_F(SpmvCliRefusal, MalformedFileNamesItsLine) {
  write_text(a, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n4 1 2\n");
  expect_refused({a}, "a.mtx:4: row index '4' is out of range 1..3");
}

TEST_F(SpmvCliRefusal, ComplexMatrix) {
  write_text(a, "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n");
  expect_refused({a}, "a.mtx:1: complex matrices are not supported");
}

TEST_F(SpmvCliRefusal, XOfTheWrongLengthNamesBoth) {
  write_good();
  write_text(xf, array({1, 2, 3, 4, 5}));
  expect_refused({a, "--x", xf}, "holds 5 values but " + a + " has 4 columns");
}

TEST_F(SpmvCliRefusal, XNotAnArray) {
  write_good();
  write_text(xf, coordinate("real general", 4, 1, {{1, 1, 1}}, false));
  expect_refused({a, "--x", xf}, "x.mtx:1:");
}

TEST_F(SpmvCliRefusal, UnknownFormatListsTheNames) {
  write_good();
  expect_refused({a, "--format", "diag"},
                 "--format: unknown format 'diag'; formats: all, auto, csr, coo, ell, hyb, jds, sell; or a variant: "
                 "cpu_reference, cpu_openmp");
}

TEST_F(SpmvCliRefusal, UnknownType) {
  write_good();
  expect_refused({a, "--type", "half"}, "--type: unknown value type 'half' (float, double)");
}

TEST_F(SpmvCliRefusal, RepeatZero) {
  write_good();
  expect_refused({a, "--repeat", "0"}, "--repeat: must be a positive integer, got '0'");
}

TEST_F(SpmvCliRefusal, OutInAMissingDirectory) {
  write_good();
  const CliResult r = run({a, "--out", d.path("no-dir/y.mtx")});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has_substr(r.output, "cannot write in")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(d.path("no-dir")));
}

}  // namespace
