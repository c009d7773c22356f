// The stencil7 ladder without a GPU: the table's contract, the CPU rungs
// through the public API against the definition (sweeps 0, 1 and many; the
// smallest grid; odd sizes), properties that hold whatever the values
// (boundary cells unchanged, the input untouched, linear fields fixed by the
// Laplace Jacobi iteration), the workspace, and every bad argument refused
// with its name and value before anything is written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "families/stencil7/contract.hpp"
#include "families/stencil7/policy.hpp"
#include "harness/registry.hpp"
#include "stencil7_test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/stencil.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using stencil7_test::C0;
using stencil7_test::C1;
using stencil7_test::Grid;
using tessera_test::has_substr;

const char* const CPU_VARIANTS[] = {"cpu_reference", "cpu_openmp"};

TEST(Stencil7Table, LadderContract) {
  const auto all = stencil7_impl::variants_ladder().all();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all.front().info.name, "cpu_reference");
  EXPECT_EQ(all.front().info.step, 0);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate name " << v.info.name;
    EXPECT_EQ(v.info.pattern, "stencil7");
    EXPECT_GT(v.info.adds.size(), 20u) << v.info.name;
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, v.info.step);
    }
    const stencil7_impl::Stencil7Spec s{Dtype::f32, 3, 3, 3, 5, 0.0, 1.0};  // 2 passes or more for every rung
    EXPECT_TRUE(v.supports(s)) << v.info.name;
    EXPECT_EQ(v.workspace_bytes(s), 27 * sizeof(float)) << v.info.name;
  }
  EXPECT_NE(tessera::find_pattern("stencil7"), nullptr);
#if TESSERA_HAVE_CUDA
  for (const char* name : {"naive", "z_pencil", "register_tiling", "shared_tiling", "temporal_blocking"})
    EXPECT_NE(stencil7_impl::variants_ladder().find(name), nullptr) << name;
  // Temporal blocking fuses 4 float (2 double) sweeps in one pass: no workspace.
  const auto& tb = stencil7_impl::variants_ladder().at("temporal_blocking", "test");
  EXPECT_EQ(tb.workspace_bytes({Dtype::f32, 9, 9, 9, 4, 0.0, 1.0}), 0u);
  EXPECT_EQ(tb.workspace_bytes({Dtype::f64, 9, 9, 9, 2, 0.0, 1.0}), 0u);
  EXPECT_EQ(tb.workspace_bytes({Dtype::f64, 9, 9, 9, 3, 0.0, 1.0}), 729 * sizeof(double));
  // Every policy rule names a variant of the ladder.
  for (const auto& r : stencil7_impl::policy::GPU_RULES)
    EXPECT_NE(stencil7_impl::variants_ladder().find(r.variant), nullptr) << r.variant;
#endif
  EXPECT_EQ(stencil7_impl::policy::pick(false, Dtype::f32, 8), "cpu_openmp");
  // The GPU picks (policy.hpp; measured on the H100 in
  // docs/results/stencil7-h100-2026-11-28b.json, fused double sweeps
  // predicted): temporal blocking for every call, one double sweep included
  // (its 16-byte pass, 92.7% of copy against naive's 92.0%).
  EXPECT_EQ(stencil7_impl::policy::pick(true, Dtype::f32, 1), "temporal_blocking");
  EXPECT_EQ(stencil7_impl::policy::pick(true, Dtype::f32, 8), "temporal_blocking");
  EXPECT_EQ(stencil7_impl::policy::pick(true, Dtype::f64, 1), "temporal_blocking");
  EXPECT_EQ(stencil7_impl::policy::pick(true, Dtype::f64, 3), "temporal_blocking");
  EXPECT_EQ(stencil7_impl::policy::pick(true, Dtype::f64, 0), "temporal_blocking");
}

template <class T>
std::vector<T> run_cpu(const std::vector<T>& in, const Grid& g, int sweeps, const char* variant, double c0 = C0,
                       double c1 = C1) {
  std::vector<T> out(g.cells(), std::numeric_limits<T>::quiet_NaN());
  stencil7(in.data(), out.data(), g.nx, g.ny, g.nz, sweeps, T(c0), T(c1), {.variant = variant});
  return out;
}

template <class T>
void check_cpu_rungs() {
  const Grid grids[] = {{3, 3, 3}, {37, 19, 23}, {130, 7, 9}, {4, 5, 17}, {3, 11, 3}};
  const int sweep_counts[] = {0, 1, 2, 5, 8};
  unsigned seed = 7;
  for (const Grid& g : grids)
    for (int sweeps : sweep_counts) {
      const std::vector<T> in = stencil7_test::random_grid<T>(g, ++seed);
      const auto want = stencil7_test::expected(in, g, sweeps, C0, C1);
      const std::vector<T> ref = run_cpu(in, g, sweeps, "cpu_reference");
      const std::vector<T> omp = run_cpu(in, g, sweeps, "cpu_openmp");
      const std::string what = std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) +
                               " sweeps=" + std::to_string(sweeps) + (sizeof(T) == 4 ? " float" : " double");
      stencil7_test::expect_matches(ref, want, in, g, sweeps, "cpu_reference " + what);
      // The OpenMP rung runs the same per-plane code: the same bits.
      EXPECT_EQ(0, std::memcmp(ref.data(), omp.data(), ref.size() * sizeof(T))) << "cpu_openmp " << what;
      if (sweeps == 0) {
        EXPECT_EQ(0, std::memcmp(ref.data(), in.data(), in.size() * sizeof(T))) << what;
      }
    }
}

TEST(Stencil7Cpu, RungsMatchTheDefinitionFloat) { check_cpu_rungs<float>(); }
TEST(Stencil7Cpu, RungsMatchTheDefinitionDouble) { check_cpu_rungs<double>(); }

// 3 x 3 x 3: one interior cell, the centre, computed by hand.
TEST(Stencil7Cpu, SmallestGridByHand) {
  const Grid g{3, 3, 3};
  std::vector<double> in(27);
  for (std::size_t i = 0; i < 27; ++i) in[i] = 0.5 * double(i) - 3.0 + (i % 4) * 0.125;
  for (const char* v : CPU_VARIANTS) {
    const std::vector<double> out = run_cpu(in, g, 1, v, 0.75, 0.5);
    const double c = in[13];
    const double sum = in[12] + in[14] + in[10] + in[16] + in[4] + in[22];
    EXPECT_DOUBLE_EQ(out[13], 0.5 * sum - 0.75 * c) << v;
    for (std::size_t i = 0; i < 27; ++i)
      if (i != 13) {
        EXPECT_EQ(out[i], in[i]) << v << " boundary cell " << i;
      }
  }
}

// Many sweeps: boundary cells keep their input bits, the input is untouched.
TEST(Stencil7Cpu, BoundaryKeptAndInputUntouched) {
  const Grid g{19, 11, 13};
  const std::vector<float> in = stencil7_test::random_grid<float>(g, 99);
  const std::vector<float> copy = in;
  for (const char* v : CPU_VARIANTS)
    for (int sweeps : {1, 7, 30}) {
      const std::vector<float> out = run_cpu(in, g, sweeps, v);
      EXPECT_EQ(0, std::memcmp(in.data(), copy.data(), in.size() * sizeof(float))) << v;
      for (std::size_t z = 0; z < g.nz; ++z)
        for (std::size_t y = 0; y < g.ny; ++y)
          for (std::size_t x = 0; x < g.nx; ++x)
            if (g.boundary(x, y, z)) {
              ASSERT_EQ(out[g.at(x, y, z)], in[g.at(x, y, z)]) << v << " sweeps " << sweeps;
            }
      // Interior cells changed: the sweeps did something.
      EXPECT_NE(out[g.at(5, 5, 5)], in[g.at(5, 5, 5)]) << v;
    }
}

// c0 = 0, c1 = 1/6 (Jacobi for Laplace's equation): a linear field is its
// own neighbours' average, so any number of sweeps leaves it as it is.
TEST(Stencil7Cpu, LinearFieldIsAFixedPoint) {
  const Grid g{23, 17, 11};
  std::vector<double> in(g.cells());
  for (std::size_t z = 0; z < g.nz; ++z)
    for (std::size_t y = 0; y < g.ny; ++y)
      for (std::size_t x = 0; x < g.nx; ++x) in[g.at(x, y, z)] = 1.5 + 0.25 * double(x) - 0.5 * double(y) + 0.75 * double(z);
  for (const char* v : CPU_VARIANTS) {
    const std::vector<double> out = run_cpu(in, g, 12, v, 0.0, 1.0 / 6.0);
    for (std::size_t i = 0; i < in.size(); ++i) ASSERT_NEAR(out[i], in[i], 1e-12) << v << " cell " << i;
  }
}

TEST(Stencil7Cpu, Workspace) {
  EXPECT_EQ(stencil7_workspace_bytes(Dtype::f32, 10, 11, 12, 0, {.variant = "cpu_openmp"}), 0u);
  EXPECT_EQ(stencil7_workspace_bytes(Dtype::f32, 10, 11, 12, 1, {.variant = "cpu_openmp"}), 0u);
  EXPECT_EQ(stencil7_workspace_bytes(Dtype::f32, 10, 11, 12, 2, {.variant = "cpu_openmp"}), 1320 * sizeof(float));
  EXPECT_EQ(stencil7_workspace_bytes(Dtype::f64, 10, 11, 12, 9, {.variant = "cpu_reference"}), 1320 * sizeof(double));
  // A caller's workspace gives the same result; one too small is refused.
  const Grid g{9, 8, 7};
  const std::vector<float> in = stencil7_test::random_grid<float>(g, 5);
  const std::vector<float> own = run_cpu(in, g, 4, "cpu_openmp");
  std::vector<float> ws(g.cells(), 123.0f), out(g.cells());
  stencil7(in.data(), out.data(), g.nx, g.ny, g.nz, 4, float(C0), float(C1),
           {.variant = "cpu_openmp", .workspace = {ws.data(), ws.size() * sizeof(float)}});
  EXPECT_EQ(0, std::memcmp(own.data(), out.data(), out.size() * sizeof(float)));
  std::vector<float> untouched(g.cells(), 42.0f);
  EXPECT_THROW(stencil7(in.data(), untouched.data(), g.nx, g.ny, g.nz, 4, float(C0), float(C1),
                        {.variant = "cpu_openmp", .workspace = {ws.data(), 16}}),
               Error);
  EXPECT_EQ(untouched[0], 42.0f);
}

// Every refusal names the argument and its value and writes nothing.
TEST(Stencil7Cpu, BadArgumentsNamedNothingWritten) {
  const Grid g{5, 6, 7};
  const std::vector<float> in = stencil7_test::random_grid<float>(g, 3);
  std::vector<float> out(g.cells(), 42.0f);
  const auto refused = [&](auto&& call, const std::string& text) {
    try {
      call();
      ADD_FAILURE() << "no error; expected one containing '" << text << "'";
    } catch (const Error& e) {
      EXPECT_TRUE(has_substr(e.what(), text)) << e.what();
    }
    for (float v : out) ASSERT_EQ(v, 42.0f) << "written despite the error (" << text << ")";
  };
  const float c0 = 0.5f, c1 = 0.1f, nan = std::numeric_limits<float>::quiet_NaN();
  refused([&] { stencil7(in.data(), out.data(), 2, 6, 7, 1, c0, c1); }, "nx = 2");
  refused([&] { stencil7(in.data(), out.data(), 5, 1, 7, 1, c0, c1); }, "ny = 1");
  refused([&] { stencil7(in.data(), out.data(), 5, 6, 0, 1, c0, c1); }, "nz = 0");
  refused([&] { stencil7(in.data(), out.data(), 5, 6, 7, -3, c0, c1); }, "sweeps = -3");
  refused([&] { stencil7(in.data(), out.data(), 5, 6, 7, 1, nan, c1); }, "c0 = nan");
  refused([&] { stencil7(in.data(), out.data(), 5, 6, 7, 1, c0, std::numeric_limits<float>::infinity()); }, "c1 = inf");
  refused([&] { stencil7<float>(nullptr, out.data(), 5, 6, 7, 1, c0, c1); }, "d_in is a null pointer");
  refused([&] { stencil7<float>(in.data(), nullptr, 5, 6, 7, 1, c0, c1); }, "d_out is a null pointer");
  refused([&] { stencil7(out.data(), out.data(), 5, 6, 7, 1, c0, c1); }, "same pointer");
  refused([&] { stencil7(out.data() + 1, out.data(), 5, 6, 7, 1, c0, c1); }, "overlap");
  refused([&] { stencil7(in.data(), out.data(), 5, 6, 7, 1, c0, c1, {.variant = "no_such_rung"}); }, "no_such_rung");
  EXPECT_THROW((void)stencil7_workspace_bytes(Dtype::f32, 5, 2, 7, 1), Error);
  EXPECT_THROW((void)stencil7_workspace_bytes(Dtype::i32, 5, 6, 7, 1), Error);
}

}  // namespace
