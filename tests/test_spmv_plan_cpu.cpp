// spmv plans on the CPU: the row-length statistics the plan's policy reads,
// the plan rules on the bench shapes, and a plan through the public API on
// host arrays (a CPU-only build, or a CUDA build without a GPU: the plan
// then runs the CPU rung).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "families/spmv/api_common.hpp"
#include "families/spmv/formats.hpp"
#include "families/spmv/policy.hpp"
#include "spmv_test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

namespace {

using namespace tessera_test::spmv;
namespace sp = tessera::spmv_impl;

// Mean and coefficient of variation straight from the offsets.
template <class T>
std::pair<double, double> direct_mean_cv(const tessera::Csr<T>& a) {
  double sum = 0, sum_sq = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) sum += double(a.row_offsets[r + 1] - a.row_offsets[r]);
  const double mean = sum / double(a.rows);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const double d = double(a.row_offsets[r + 1] - a.row_offsets[r]) - mean;
    sum_sq += d * d;
  }
  return {mean, std::sqrt(sum_sq / double(a.rows)) / mean};
}

TEST(SpmvPlanStats, HistogramStatisticsMatchTheRows) {
  for (const Shape& s : shapes()) {
    const auto m = build<float>(s, 7);
    const auto a = m.view();
    const tessera::SpmvRowStats st = tessera::spmv_row_stats_host(a);
    EXPECT_EQ(st.rows, a.rows) << s.name;
    EXPECT_EQ(st.nnz, a.nnz) << s.name;
    EXPECT_EQ(st.max_length, sp::formats::row_stats(a).max_length) << s.name;
    if (a.rows == 0 || a.nnz == 0) {
      EXPECT_EQ(st.cv, 0.0) << s.name;
      continue;
    }
    const auto [mean, cv] = direct_mean_cv(a);
    EXPECT_NEAR(st.mean, mean, 1e-12 * mean) << s.name;
    EXPECT_NEAR(st.cv, cv, 1e-9 * (cv + 1)) << s.name;
    std::int64_t empty = 0;
    for (std::int64_t r = 0; r < a.rows; ++r) empty += a.row_offsets[r + 1] == a.row_offsets[r];
    EXPECT_EQ(st.empty_rows, empty) << s.name;
  }
}

// The plan rules on the bench matrices' kinds (smaller sides, same shapes):
// the Laplacian is short, the 27-point stencil regular, the power law
// irregular; the 27-point stencil's cv shrinks with the side (0.07 at 128).
TEST(SpmvPlanPolicy, ClassifiesTheBenchShapes) {
  const auto stats = [](const auto& m) { return tessera::spmv_row_stats_host(m.view()); };
  const auto lap = stats(sp::matrices::laplace_2d<float>(64, 1));
  const auto st27 = stats(sp::matrices::stencil_27<float>(24, 1));
  const auto st27_big = stats(sp::matrices::stencil_27<float>(64, 1));
  const auto power = stats(sp::matrices::power_law<float>(20000, 20000, 16.0, 5000, 1));
  EXPECT_TRUE(sp::plan_short_rows(lap));
  EXPECT_FALSE(sp::plan_regular_rows(lap));
  EXPECT_FALSE(sp::plan_short_rows(st27));
  EXPECT_TRUE(sp::plan_regular_rows(st27)) << "cv " << st27.cv;
  EXPECT_TRUE(sp::plan_regular_rows(st27_big)) << "cv " << st27_big.cv;
  EXPECT_LT(st27_big.cv, st27.cv);
  EXPECT_FALSE(sp::plan_short_rows(power));
  EXPECT_FALSE(sp::plan_regular_rows(power)) << "cv " << power.cv;
  EXPECT_GT(power.cv, 1.0);
  // One long row spoils regularity even with a small cv.
  tessera::SpmvRowStats one_long{100000, 2700000, 2000, 0, 27.0, 0.2};
  EXPECT_FALSE(sp::plan_regular_rows(one_long));
  for (const auto& s : {lap, st27, power})
    EXPECT_EQ(tessera::spmv_plan_variant(tessera::Dtype::f32, s.rows, s, false), "cpu_openmp");
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(tessera::spmv_plan_variant(tessera::Dtype::f32, lap.rows, lap, true), "csr_scalar_guarded");
  EXPECT_EQ(tessera::spmv_plan_variant(tessera::Dtype::f32, st27.rows, st27, true), "jds");
  EXPECT_EQ(tessera::spmv_plan_variant(tessera::Dtype::f64, st27.rows, st27, true), "jds");
  EXPECT_EQ(tessera::spmv_plan_variant(tessera::Dtype::f32, power.rows, power, true), "csr_nnz_split");
  for (const sp::PlanRule& rule : sp::kGpuPlanPolicy) {  // each a CUDA rung, with its evidence
    const auto& v = sp::variants_ladder().at(std::string(rule.variant), "test");
    EXPECT_EQ(v.info.backend, tessera::Backend::cuda) << rule.variant;
    EXPECT_NE(rule.evidence.find("ms"), std::string_view::npos) << rule.variant;
  }
#endif
}

// A plan on host arrays: the CPU rung, nothing converted, results within the
// per-row bound, the options' variant checked on each run.
template <class T>
void check_host_plan() {
  for (const Shape& s : shapes()) {
    const auto m = build<T>(s, 21);
    const auto a = m.view();
    const auto x = random_vector<T>(a.cols, 22);
    const auto y0 = random_vector<T>(a.rows, 23);
    for (const std::string variant : {"", "cpu_reference"}) {
      auto plan = tessera::spmv_plan(a, {.validate_structure = true, .variant = variant});
      if (variant.empty()) {
        EXPECT_EQ(plan.variant(), "cpu_openmp");  // host arrays: a CPU plan, GPU or not
      }
      EXPECT_EQ(plan.footprint_bytes(), 0u) << s.name;
      EXPECT_FALSE(plan.reason().empty());
      EXPECT_EQ(plan.row_stats().nnz, a.nnz);
      for (int repeat = 0; repeat < 2; ++repeat) {
        std::vector<T> y = y0;
        tessera::spmv(plan, x.data(), y.data(), {.alpha = -1.5, .beta = 0.5});
        expect_close(a, x, y0, -1.5, 0.5, y, s.name + " plan " + plan.variant());
      }
      auto moved = std::move(plan);
      std::vector<T> y = y0;
      tessera::spmv(moved, x.data(), y.data());
      expect_close(a, x, y0, 1.0, 0.0, y, s.name + " moved plan");
    }
  }
}
TEST(SpmvPlanHost, RunsAndMatchesFloat) { check_host_plan<float>(); }
TEST(SpmvPlanHost, RunsAndMatchesDouble) { check_host_plan<double>(); }

// Host arrays make a CPU plan, GPU or not: this runs on either machine.
TEST(SpmvPlanHost, ChecksOnceAndRefusesAnotherVariant) {
  std::vector<std::int64_t> off{0, 2, 1, 3};  // decreasing at 2
  std::vector<std::int32_t> col{0, 1, 2};
  std::vector<float> val{1, 2, 3}, x{1, 1, 1}, y(3, 0);
  tessera::Csr<float> bad{3, 3, 3, off.data(), col.data(), val.data()};
  try {
    (void)tessera::spmv_plan(bad, {.validate_structure = true});
    ADD_FAILURE() << "a decreasing offset passed the plan's check";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("row_offsets[2]"), std::string::npos) << e.what();
  }
  off = {0, 1, 2, 3};
  const tessera::Csr<float> good{3, 3, 3, off.data(), col.data(), val.data()};
  const auto plan = tessera::spmv_plan(good, {.variant = "cpu_reference"});
  EXPECT_THROW(tessera::spmv(plan, x.data(), y.data(), {.variant = "cpu_openmp"}), tessera::Error);
  EXPECT_THROW(tessera::spmv(plan, x.data(), x.data()), tessera::Error);  // x aliases y
  EXPECT_THROW(tessera::spmv(plan, static_cast<const float*>(nullptr), y.data()), tessera::Error);
  EXPECT_THROW((void)tessera::spmv_plan(tessera::Csr<float>{3, 3, 3, nullptr, col.data(), val.data()}), tessera::Error);
  tessera::spmv(plan, x.data(), y.data(), {.alpha = 2});
  EXPECT_EQ(y, (std::vector<float>{2, 4, 6}));
}

}  // namespace

namespace {

// A few rows of 1e5 entries: the CPU rungs sum them right, the statistics
// see them (max, cv) and the plan rules call the matrix irregular; the GPU
// rungs run it in test_spmv_gpu.cpp (SpmvGpu.FewRowsOf1e5Entries).
TEST(SpmvLongRows, CpuRungsAndStatistics) {
  const auto m = long_rows_matrix<float>(9);
  const auto a = m.view();
  const auto st = tessera::spmv_row_stats_host(a);
  EXPECT_EQ(st.max_length, 100000 + LONG_ROWS_MATRIX_ROWS - 1);
  EXPECT_GT(st.cv, 1.0);
  EXPECT_FALSE(sp::plan_regular_rows(st));
  EXPECT_FALSE(sp::plan_short_rows(st));
  std::int64_t long_rows = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) long_rows += a.row_offsets[r + 1] - a.row_offsets[r] >= 100000;
  EXPECT_EQ(long_rows, 3);
  const auto x = random_vector<float>(a.cols, 1);
  const auto y0 = random_vector<float>(a.rows, 2);
  for (const char* v : {"cpu_reference", "cpu_openmp"}) {
    std::vector<float> y = y0;
    tessera::spmv(a, x.data(), y.data(), {.alpha = 1.25, .beta = -1, .validate_structure = true, .variant = v});
    expect_close(a, x, y0, 1.25, -1.0, y, v);
  }
}

}  // namespace
