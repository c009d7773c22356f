// `tessera potential` through the built binary: a small molecule's map read
// back from the OpenDX file and compared point by point with the direct sum
// in double; what it prints; and every bad input refused with exit 2, its
// message (file, line, problem), and no file written (an existing OUT kept).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "matrix_market_test_support.hpp"
#include "potential_test_support.hpp"
#include "test_support.hpp"
#include "traces_cli_support.hpp"

namespace {

using mm_test::ScratchDir;
using potential_test::pqr_line;
using tessera::Atom;
using tessera_test::has_substr;
using traces_test::CliResult;
using traces_test::run_cli;

std::string read_text(const std::string& path) {
  std::stringstream ss;
  ss << std::ifstream(path).rdbuf();
  return ss.str();
}

// A molecule of n atoms written as PQR; `atoms` gets the values as printed.
std::string molecule(int n, unsigned seed, std::vector<Atom>& atoms) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-6.0f, 6.0f);
  std::string text = "REMARK   1 test molecule\n";
  for (int i = 0; i < n; ++i) {
    Atom a{u(rng), u(rng), u(rng) / 2, u(rng) / 6};
    text += pqr_line(i + 1, a, i % 2 == 1, i % 7 == 3 ? "HETATM" : "ATOM");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f %.3f %.3f %.4f", a.x, a.y, a.z, a.q);
    std::istringstream(buf) >> a.x >> a.y >> a.z >> a.q;
    atoms.push_back(a);
  }
  return text + "END\n";
}

TEST(PotentialCli, WritesTheDirectSumAsOpenDx) {
  ScratchDir d, logs;
  std::vector<Atom> atoms;
  std::ofstream(d.path("mol.pqr")) << molecule(60, 5, atoms);
  const CliResult r = run_cli({"potential", d.path("mol.pqr"), d.path("out.dx"), "--spacing", "0.75", "--padding",
                               "3"},
                              logs.path("log"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "60 atoms"));
  EXPECT_TRUE(has_substr(r.output, "lattice "));
  EXPECT_TRUE(has_substr(r.output, "direct Coulomb sum"));
  EXPECT_TRUE(has_substr(r.output, "atom evaluations/s"));
  const potential_test::Dx dx = potential_test::read_dx(read_text(d.path("out.dx")));
  ASSERT_FALSE(dx.values.empty());
  EXPECT_EQ(dx.delta[0][0], 0.75);
  for (std::size_t p = 0; p < dx.values.size(); ++p) {
    const std::size_t i = p % dx.counts[0], j = (p / dx.counts[0]) % dx.counts[1], k = p / (dx.counts[0] * dx.counts[1]);
    const double x = dx.origin[0] + 0.75 * double(i), y = dx.origin[1] + 0.75 * double(j),
                 z = dx.origin[2] + 0.75 * double(k);
    double v = 0, scale = 0;
    for (const Atom& a : atoms) {
      const double r1 = std::sqrt((x - a.x) * (x - a.x) + (y - a.y) * (y - a.y) + (z - a.z) * (z - a.z));
      v += a.q / r1;
      scale += std::fabs(a.q) / r1;
    }
    // float sums and the file's 7 significant digits (origin printed to 7 too).
    ASSERT_LE(std::fabs(dx.values[p] - v), 2e-5 * scale) << "point " << p;
  }
}

TEST(PotentialCli, WritesTheCutoffSumAsOpenDx) {
  ScratchDir d, logs;
  std::vector<Atom> atoms;
  std::ofstream(d.path("mol.pqr")) << molecule(80, 9, atoms);
  const double c = 4.0;
  const CliResult r =
      run_cli({"potential", d.path("mol.pqr"), d.path("out.dx"), "--spacing", "0.8", "--padding", "2", "--cutoff", "4"},
              logs.path("log"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "smoothed cutoff sum, c = 4"));
  EXPECT_TRUE(has_substr(r.output, "lattice points/s"));
  const potential_test::Dx dx = potential_test::read_dx(read_text(d.path("out.dx")));
  ASSERT_FALSE(dx.values.empty());
  std::size_t inside = 0;
  for (std::size_t p = 0; p < dx.values.size(); ++p) {
    const std::size_t i = p % dx.counts[0], j = (p / dx.counts[0]) % dx.counts[1], k = p / (dx.counts[0] * dx.counts[1]);
    const double x = dx.origin[0] + 0.8 * double(i), y = dx.origin[1] + 0.8 * double(j),
                 z = dx.origin[2] + 0.8 * double(k);
    double v = 0, scale = 0;
    for (const Atom& a : atoms) {
      const double r2 = (x - a.x) * (x - a.x) + (y - a.y) * (y - a.y) + (z - a.z) * (z - a.z);
      if (r2 >= c * c) continue;
      const double s = 1 - r2 / (c * c), term = a.q / std::sqrt(r2) * s * s;
      v += term;
      // Near c the float 1 - r²/c² loses digits: the error scales with s, not s².
      scale += std::fabs(a.q) / std::sqrt(r2) * s;
      ++inside;
    }
    ASSERT_LE(std::fabs(dx.values[p] - v), 2e-5 * scale) << "point " << p;
  }
  EXPECT_GT(inside, dx.values.size());  // the cutoff leaves atoms in reach of most points
}

void expect_refused(const std::vector<std::string>& args, const std::string& message, const ScratchDir& d) {
  ScratchDir logs;
  std::ofstream(d.path("old.dx")) << "keep me\n";
  std::vector<std::string> full = args;
  const CliResult r = run_cli(full, logs.path("log"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has_substr(r.output, message));
  EXPECT_EQ(read_text(d.path("old.dx")), "keep me\n");
  EXPECT_FALSE(std::filesystem::exists(d.path("new.dx")));
}

TEST(PotentialCli, BadInputsWriteNothing) {
  ScratchDir d;
  std::vector<Atom> atoms;
  const std::string good = molecule(5, 1, atoms);
  std::ofstream(d.path("ok.pqr")) << good;
  std::ofstream(d.path("nocharge.pqr")) << good << "ATOM 99 N MET 1 1.0 2.0 3.0\n";
  std::ofstream(d.path("nan.pqr")) << "REMARK x\nREMARK y\nATOM 1 N MET 1 1.0 nan 3.0 0.1 1.5\n";
  std::ofstream(d.path("empty.pqr")) << "";
  const std::size_t lines = std::size_t(std::count(good.begin(), good.end(), '\n'));
  expect_refused({"potential", d.path("nocharge.pqr"), d.path("old.dx")},
                 "nocharge.pqr:" + std::to_string(lines + 1) + ": ATOM record with 8 fields", d);
  expect_refused({"potential", d.path("nan.pqr"), d.path("old.dx")}, "nan.pqr:3: y coordinate is nan", d);
  expect_refused({"potential", d.path("empty.pqr"), d.path("old.dx")}, "no ATOM or HETATM records", d);
  expect_refused({"potential", d.path("missing.pqr"), d.path("new.dx")}, "missing.pqr: cannot open", d);
  expect_refused({"potential", d.path("ok.pqr"), d.path("old.dx"), "--spacing", "0"}, "--spacing 0", d);
  expect_refused({"potential", d.path("ok.pqr"), d.path("old.dx"), "--padding", "-1"}, "--padding -1", d);
  expect_refused({"potential", d.path("ok.pqr"), d.path("new.dx"), "--cutoff", "0"},
                 "--cutoff 0: must be a positive distance", d);
  expect_refused({"potential", d.path("ok.pqr"), d.path("new.dx"), "--cutoff", "nan"}, "--cutoff nan", d);
  expect_refused({"potential", d.path("ok.pqr"), d.path("nodir/new.dx")}, "cannot write in", d);
}

}  // namespace
