// The cutoff ladder without a GPU: the table, the cell-list reference against
// the brute-force direct sum with the same smoothing, the CPU rungs, atoms
// outside the lattice, an analytic single atom, the public API's argument
// checks and the harness on the pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "families/cutoff/contract.hpp"
#include "families/cutoff/cpu_rungs.hpp"
#include "families/cutoff/geometry.hpp"
#include "families/cutoff/water.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "tessera/core/error.hpp"
#include "tessera/cutoff.hpp"
#include "test_cutoff_support.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using tessera_test::CutoffCase;
using tessera_test::make_lattice;

cutoff_impl::CutoffSpec spec_of(const CutoffCase& c) { return {c.atoms.size(), c.lattice, c.cutoff}; }

TEST(CutoffTable, LadderContract) {
  const auto all = cutoff_impl::variants_ladder().all();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all.front().info.name, "cpu_reference");
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    EXPECT_TRUE(names.insert(v.info.name).second) << v.info.name;
    EXPECT_EQ(v.info.pattern, "cutoff");
    EXPECT_GT(v.info.adds.size(), 30u) << v.info.name;
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, v.info.step);
    }
  }
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(all.size(), 12u);
  EXPECT_EQ(all.back().info.name, "sorted_cells_lean");
  EXPECT_EQ(all.back().info.role, Role::product);
#endif
}

// The cell list finds exactly the pairs the brute force does: both in double,
// they agree to rounding.
TEST(CutoffReference, CellListMatchesBruteForceWithSmoothing) {
  for (const auto& c : tessera_test::small_cases()) {
    const auto spec = spec_of(c);
    const auto ref = cutoff_impl::cpu::reference_potential(spec, c.atoms.data());
    const auto direct = cutoff_impl::cpu::direct_smoothed_potential(spec, c.atoms.data());
    double nonzero = 0;
    for (std::size_t p = 0; p < direct.size(); ++p) {
      ASSERT_NEAR(ref.potential[p], direct[p], 1e-12 * (ref.abs_sum[p] + 1e-300)) << c.name << " point " << p;
      nonzero += ref.potential[p] != 0;
    }
    if (!c.atoms.empty()) {
      EXPECT_GT(nonzero, 0) << c.name;  // the cases are not trivially zero
      EXPECT_GT(ref.pairs, 0) << c.name;
    }
  }
}

TEST(CutoffReference, CpuRungsWithinTheFloatDirectSum) {
  for (const auto& c : tessera_test::small_cases()) {
    const auto spec = spec_of(c);
    const auto ref = cutoff_impl::cpu::reference_potential(spec, c.atoms.data());
    for (const char* name : {"cpu_reference", "cpu_openmp"}) {
      std::vector<float> out(c.lattice.points(), std::numeric_limits<float>::quiet_NaN());
      cutoff_impl::variants_ladder().at(name, "test").run({spec, c.atoms.data(), out.data(), nullptr, nullptr});
      EXPECT_TRUE(tessera_test::within_float_sum(out, ref)) << c.name << " " << name;
    }
  }
}

// The float direct sum computed as the GPU rungs do (float differences, an
// FMA for 1 - r^2 / c^2, float accumulation), with smoothing s^power, one atom
// optionally left out.
std::vector<float> float_direct_sum(const cutoff_impl::CutoffSpec& s, const std::vector<Atom>& atoms, int power,
                                    std::size_t skip = SIZE_MAX) {
  const Lattice& l = s.lattice;
  const float c2 = s.cutoff * s.cutoff, inv_c2 = 1.f / c2;
  std::vector<float> out(l.points());
  for (std::size_t k = 0; k < l.nz; ++k)
    for (std::size_t j = 0; j < l.ny; ++j)
      for (std::size_t i = 0; i < l.nx; ++i) {
        const float x = cutoff_impl::lattice_coord(l.origin[0], l.spacing, i);
        const float y = cutoff_impl::lattice_coord(l.origin[1], l.spacing, j);
        const float z = cutoff_impl::lattice_coord(l.origin[2], l.spacing, k);
        float v = 0;
        for (std::size_t a = 0; a < atoms.size(); ++a) {
          if (a == skip) continue;
          const float dx = atoms[a].x - x, dy = atoms[a].y - y, dz = atoms[a].z - z;
          const float r2 = dx * dx + dy * dy + dz * dz;
          if (!(r2 < c2)) continue;
          const float sm = std::fma(-r2, inv_c2, 1.f);
          v += atoms[a].q / std::sqrt(r2) * (power == 2 ? sm * sm : sm);
        }
        out[i + l.nx * (j + l.ny * k)] = v;
      }
  return out;
}

// The check's tolerance holds a float evaluation near the cutoff (where
// 1 - r^2 / c^2 cancels), yet still fails a missing atom and a wrong smoothing.
TEST(CutoffReference, ToleranceCoversFloatRoundingAndCatchesBugs) {
  int cases = 0;
  for (const auto& c : tessera_test::small_cases()) {
    if (c.atoms.empty() || double(c.lattice.points()) * double(c.atoms.size()) > 3e7) continue;
    ++cases;
    const auto spec = spec_of(c);
    const auto ref = cutoff_impl::cpu::reference_potential(spec, c.atoms.data());
    EXPECT_TRUE(tessera_test::within_float_sum(float_direct_sum(spec, c.atoms, 2), ref)) << c.name;
    EXPECT_FALSE(tessera_test::within_float_sum(float_direct_sum(spec, c.atoms, 1), ref)) << c.name << ": s, not s^2";
    // The atom nearest the lattice's centre reaches points: leaving it out must fail.
    const Lattice& l = c.lattice;
    const float mid[3] = {l.origin[0] + l.spacing * float(l.nx - 1) / 2, l.origin[1] + l.spacing * float(l.ny - 1) / 2,
                          l.origin[2] + l.spacing * float(l.nz - 1) / 2};
    std::size_t nearest = 0;
    double best = 1e300;
    for (std::size_t a = 0; a < c.atoms.size(); ++a) {
      const double d = std::pow(c.atoms[a].x - mid[0], 2) + std::pow(c.atoms[a].y - mid[1], 2) +
                       std::pow(c.atoms[a].z - mid[2], 2);
      if (d < best) best = d, nearest = a;
    }
    EXPECT_FALSE(tessera_test::within_float_sum(float_direct_sum(spec, c.atoms, 2, nearest), ref))
        << c.name << ": atom " << nearest << " left out";
  }
  EXPECT_GE(cases, 4);
}

// The H100's value at the point where the old tolerance (the float sum's
// rounding alone) failed every GPU rung: sparse_empty_bins point 31108, one
// atom just inside c. Within the new bound, and the old one would refuse it.
TEST(CutoffReference, ToleranceAdmitsTheGpuValueNearTheCutoff) {
  const auto cases = tessera_test::small_cases();
  const auto it = std::find_if(cases.begin(), cases.end(), [](const auto& c) { return c.name == "sparse_empty_bins"; });
  ASSERT_NE(it, cases.end());
  const auto ref = cutoff_impl::cpu::reference_potential(spec_of(*it), it->atoms.data());
  const std::size_t p = 31108;
  ASSERT_EQ(ref.near[p], 1u);
  const double err = std::fabs(-0.00012111651449231431 - ref.potential[p]);
  EXPECT_GT(err, 0x1p-24 * 20 * ref.abs_sum[p]);
  EXPECT_LE(err, ref.tolerance(p));
  EXPECT_LT(ref.tolerance(p), 1e-3 * ref.abs_sum[p]);  // still tight: a missing or mis-smoothed term is far larger
}

// Far from the cutoff the rounding bound is a small part of the sum's scale;
// at an atom just inside c it dominates (the cancellation it is there for).
TEST(CutoffReference, RoundingBoundGrowsOnlyNearTheCutoff) {
  const Lattice l = make_lattice(20, 20, 20, 0.5f, 1, 1, 1);
  const float c = 3.f;
  for (const float r : {1.f, 2.9999f}) {
    const std::vector<Atom> atoms{{20.f + r, 20.f, 20.f, 1.f}};
    const cutoff_impl::CutoffSpec spec{1, l, c};
    const auto ref = cutoff_impl::cpu::reference_potential(spec, atoms.data());
    ASSERT_EQ(ref.near[0], 1u);
    const double ratio = ref.rounding[0] / ref.abs_sum[0];
    if (r < 2)
      EXPECT_LT(ratio, 1e-4);
    else
      EXPECT_GT(ratio, 1e-3);
  }
}

// One atom: V = q / r (1 - r^2 / c^2)^2 inside c, 0 outside; an atom outside
// the lattice still reaches the points within c of it.
TEST(CutoffReference, SingleAtomOutsideTheLatticeAnalytic) {
  const Lattice l = make_lattice(0, 0, 0, 0.5f, 6, 5, 4);
  const std::vector<Atom> atoms{{-1.25f, 0.5f, 0.75f, 0.8f}};
  const float c = 2.f;
  std::vector<float> out(l.points(), std::numeric_limits<float>::quiet_NaN());
  cutoff_potential(atoms.data(), atoms.size(), l, c, out.data(), {.variant = "cpu_reference"});
  int inside = 0;
  for (std::size_t k = 0; k < l.nz; ++k)
    for (std::size_t j = 0; j < l.ny; ++j)
      for (std::size_t i = 0; i < l.nx; ++i) {
        const double dx = 0.5 * i + 1.25, dy = 0.5 * j - 0.5, dz = 0.5 * k - 0.75;
        const double r2 = dx * dx + dy * dy + dz * dz;
        const double want = r2 < 4 ? 0.8 / std::sqrt(r2) * (1 - r2 / 4) * (1 - r2 / 4) : 0.0;
        inside += r2 < 4;
        EXPECT_NEAR(out[i + l.nx * (j + l.ny * k)], want, 1e-6 * std::fabs(want)) << i << " " << j << " " << k;
      }
  EXPECT_GT(inside, 5);
  EXPECT_LT(inside, int(l.points()));
}

TEST(CutoffReference, CutoffChangesTheAnswer) {
  // The same atoms with a larger cutoff: more pairs, a different potential.
  const auto c = tessera_test::small_cases()[0];
  auto s = spec_of(c);
  const auto a = cutoff_impl::cpu::reference_potential(s, c.atoms.data());
  s.cutoff = 2.f * c.cutoff;
  const auto b = cutoff_impl::cpu::reference_potential(s, c.atoms.data());
  EXPECT_GT(b.pairs, 4 * a.pairs);
  EXPECT_NE(a.potential, b.potential);
}

// The bench's water: n atoms, TIP3P charges (neutral but for the ions that
// round n), bonds 0.9572 Å, evenly spread at water's density.
TEST(CutoffWater, BoxHasWatersDensityAndGeometry) {
  const double box[3] = {40, 30, 25};
  const std::size_t n = 2500;  // 833 molecules and one ion
  const auto atoms = cutoff_impl::water_box(n, box, 17);
  ASSERT_EQ(atoms.size(), n);
  double charge = 0;
  for (const auto& a : atoms) charge += a.q;
  EXPECT_NEAR(charge, 1.0, 1e-3);
  int low_half = 0;
  for (std::size_t m = 0; m + 2 < n; m += 3) {
    ASSERT_FLOAT_EQ(atoms[m].q, -0.834f);
    for (int h = 1; h <= 2; ++h) {
      const double dx = atoms[m + h].x - atoms[m].x, dy = atoms[m + h].y - atoms[m].y, dz = atoms[m + h].z - atoms[m].z;
      ASSERT_NEAR(std::sqrt(dx * dx + dy * dy + dz * dz), 0.9572, 1e-4);
    }
    EXPECT_TRUE(atoms[m].x > 0 && atoms[m].x < 40 && atoms[m].y > 0 && atoms[m].y < 30 && atoms[m].z > 0 && atoms[m].z < 25);
    low_half += atoms[m].z < 12.5;
  }
  // Spread over the whole box, not packed at one end.
  EXPECT_NEAR(low_half / 833.0, 0.5, 0.08);
}

// ---- the bin geometry the GPU rungs rely on ---------------------------------------

TEST(CutoffGeometry, OffsetsCoverEveryAtomWithinTheCutoff) {
  // Every (point in a region, atom within c) pair falls in a listed offset.
  const Lattice l = make_lattice(0, 0, 0, 0.5f, 16, 16, 16);
  for (float c : {1.f, 3.7f, 12.f}) {
    const auto g = cutoff_impl::make_bin_grid(l, c, 1);
    EXPECT_GT(g.halo * g.side, c);
    const auto offsets = cutoff_impl::neighbour_offsets(g, l.spacing);
    std::set<std::uint32_t> have(offsets.begin(), offsets.end());
    const auto atoms = tessera_test::atoms_around(l, 3000, c, 11);
    for (const auto& a : atoms) {
      const long long cell = cutoff_impl::cell_of(g, a.x, a.y, a.z);
      ASSERT_GE(cell, 0);
      const int bx = int(cell % g.dims[0]), by = int((cell / g.dims[0]) % g.dims[1]), bz = int(cell / (g.dims[0] * g.dims[1]));
      for (std::size_t p = 0; p < l.points(); p += 37) {
        const std::size_t i = p % 16, j = (p / 16) % 16, k = p / 256;
        const float x = cutoff_impl::lattice_coord(0, 0.5f, i), y = cutoff_impl::lattice_coord(0, 0.5f, j),
                    z = cutoff_impl::lattice_coord(0, 0.5f, k);
        const float dx = a.x - x, dy = a.y - y, dz = a.z - z;
        if (!(dx * dx + dy * dy + dz * dz < c * c)) continue;
        const int rx = int(i) / 8 + g.halo, ry = int(j) / 8 + g.halo, rz = int(k) / 8 + g.halo;
        const std::uint32_t key = std::uint32_t(std::uint8_t(std::int8_t(bx - rx))) |
                                  (std::uint32_t(std::uint8_t(std::int8_t(by - ry))) << 8) |
                                  (std::uint32_t(std::uint8_t(std::int8_t(bz - rz))) << 16);
        ASSERT_TRUE(have.count(key)) << "c " << c << " atom " << a.x << "," << a.y << "," << a.z;
        // The dynamic rungs' x range of that row contains the cell too (x_split 4).
        const auto g4 = cutoff_impl::make_bin_grid(l, c, 4);
        const long long cell4 = cutoff_impl::cell_of(g4, a.x, a.y, a.z);
        const auto range = cutoff_impl::pencil_range(g4, l.spacing, by - ry, bz - rz);
        const int cx4 = int(cell4 % g4.dims[0]) - rx * 4;
        ASSERT_TRUE(range.lo <= cx4 && cx4 <= range.hi) << "c " << c;
      }
    }
  }
}

// ---- the public API's checks ------------------------------------------------------

TEST(CutoffApi, BadInputsNameTheProblem) {
  const Lattice l = make_lattice(0, 0, 0, 0.5f, 4, 4, 4);
  std::vector<Atom> atoms = tessera_test::atoms_around(l, 10, 1.f, 3);
  std::vector<float> out(l.points(), 7.f);
  const CutoffOptions cpu{.variant = "cpu_openmp"};
  auto msg = [&](auto&& f) { return tessera_test::error_message(f); };
  EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(nullptr, 10, l, 3.f, out.data(), cpu); }), "atoms is a null pointer"));
  EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, l, 3.f, nullptr, cpu); }), "potential is a null pointer"));
  for (float c : {0.f, -1.f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
    EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, l, c, out.data(), cpu); }), "cutoff ="));
  Lattice empty = l;
  empty.ny = 0;
  EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, empty, 3.f, out.data(), cpu); }), "lattice is empty"));
  for (float s : {0.f, -0.5f, std::numeric_limits<float>::quiet_NaN()}) {
    Lattice bad = l;
    bad.spacing = s;
    EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, bad, 3.f, out.data(), cpu); }), "spacing"));
  }
  atoms[3].y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, l, 3.f, out.data(), cpu); }), "atom 3 is not finite"));
  atoms[3].y = 1.f;
  atoms[7].q = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, l, 3.f, out.data(), cpu); }), "atom 7 is not finite"));
  atoms[7].q = 0.5f;
  EXPECT_TRUE(tessera_test::has_substr(msg([&] { cutoff_potential(atoms.data(), 10, l, 3.f, out.data(), {.variant = "nope"}); }), "no variant named 'nope'"));
  // Nothing was written by any of the refused calls.
  for (float v : out) ASSERT_EQ(v, 7.f);
  // And the good call writes every point.
  cutoff_potential(atoms.data(), 10, l, 3.f, out.data(), cpu);
  int changed = 0;
  for (float v : out) changed += v != 7.f;
  EXPECT_GT(changed, 0);
  EXPECT_EQ(cutoff_workspace_bytes(10, l, 3.f, cpu), 0u);
  EXPECT_THROW(cutoff_workspace_bytes(10, l, -3.f, cpu), Error);
}

#if !TESSERA_HAVE_CUDA
TEST(CutoffApi, CpuOnlyBuildPicksOpenmp) {
  const Lattice l = make_lattice(0, 0, 0, 0.5f, 5, 6, 7);
  EXPECT_EQ(cutoff_default_variant(10, l, 3.f), "cpu_openmp");
  const auto atoms = tessera_test::atoms_around(l, 50, 2.f, 4);
  std::vector<float> out(l.points());
  cutoff_potential(atoms.data(), atoms.size(), l, 3.f, out.data());
  const auto ref = cutoff_impl::cpu::reference_potential({atoms.size(), l, 3.f}, atoms.data());
  EXPECT_TRUE(tessera_test::within_float_sum(out, ref));
}
#endif

// ---- the harness ------------------------------------------------------------------

TEST(CutoffHarness, QuickVerifyPassesOnTheCpuRungs) {
  harness::RunOptions o;
  o.gpu = false;
  o.quick = true;
  o.seed = 5;
  std::ostringstream out;
  harness::DeviceInfo dev;
  const auto report = harness::run_verify(harness::parse_selector("cutoff"), o, dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  EXPECT_GE(report.results.size(), 8u) << out.str();  // 4 problems x 2 CPU rungs
  for (const auto& r : report.results) EXPECT_TRUE(r.verified) << r.problem.label << " " << r.error;
}

// A lattice past 2^20 points is checked at a sample (8 corners + 4096
// seeded points) against the double cell-list sum, and says so.
TEST(CutoffHarness, LargeLatticesAreCheckedAtASample) {
  harness::RunOptions o;
  o.gpu = false;
  o.size = 13500;  // a 51 Å water cube: 102^3 = 1.06 M points, just past 2^20
  o.seed = 3;
  std::ostringstream out;
  harness::DeviceInfo dev;
  const auto report = harness::run_verify(harness::parse_selector("cutoff/cpu_openmp"), o, dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  ASSERT_EQ(report.results.size(), 1u) << out.str();
  EXPECT_TRUE(report.results[0].verified) << report.results[0].error;
  EXPECT_TRUE(tessera_test::has_substr(report.results[0].note, "sampled points"))
      << report.results[0].note;
}

TEST(CutoffHarness, BenchProblemsAtTheIssueSizes) {
  harness::RunOptions o;
  o.gpu = true;
  const auto problems = find_pattern("cutoff")->bench_problems(o);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_TRUE(tessera_test::has_substr(problems[0].label, "the direct sum's bench (256x256x64"));
  EXPECT_TRUE(tessera_test::has_substr(problems[1].label, "DCS lattice 256x256x64"));
  EXPECT_TRUE(tessera_test::has_substr(problems[2].label, "water 100000 atoms"));
  EXPECT_TRUE(tessera_test::has_substr(problems[3].label, "water 1000000 atoms"));
  o.headline = true;
  EXPECT_EQ(find_pattern("cutoff")->bench_problems(o).size(), 2u);
}

}  // namespace
