// spmv plans on the GPU: every CUDA rung as a plan (converted once, run
// twice) against the naive loop; deterministic rungs give the plan's bits
// and the per-call API's bits alike; the plan's pick on the bench shapes
// (smaller sides); the footprint of a format plan. Skips without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "families/spmv/contract.hpp"
#include "families/spmv/formats.hpp"
#include "spmv_gpu_test_support.hpp"
#include "spmv_test_support.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

namespace {

using namespace tessera_test::spmv;
namespace sp = tessera::spmv_impl;

std::vector<std::string> plan_variants() {
  std::vector<std::string> out;
  for (const auto& v : sp::variants_ladder().all())
    if (v.info.backend == tessera::Backend::cuda) out.emplace_back(v.info.name);
  return out;
}

template <class T>
std::vector<T> download(const DeviceArray& d, std::size_t n, cudaStream_t stream) {
  std::vector<T> out(n);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaMemcpy(out.data(), d.p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

class SpmvPlanGpu : public tessera_test::GpuFixture<::testing::TestWithParam<std::string>> {
 protected:
  template <class T>
  void check_all_shapes() {
    const std::string variant = GetParam();
    const auto& v = sp::variants_ladder().at(variant, "test");
    for (const Shape& s : shapes()) {
      const auto host = build<T>(s, 41);
      const auto a = host.view();
      const sp::SpmvSpec spec{tessera::dtype_of<T>(), a.rows, a.cols, a.nnz};
      const DeviceMatrix<T> dev(host);
      const bool ell_explodes = variant == "ell" && !sp::formats::ell_fits(
                                                        a.rows, sp::formats::row_stats(a).max_length, a.nnz, sizeof(T));
      if (!v.supports(spec) || ell_explodes) {
        EXPECT_THROW((void)tessera::spmv_plan(dev.view(), {.variant = variant, .stream = stream()}), tessera::Error)
            << s.name;
        continue;
      }
      const auto plan = tessera::spmv_plan(dev.view(), {.validate_structure = true, .variant = variant,
                                                        .stream = stream()});
      EXPECT_EQ(plan.variant(), variant);
      EXPECT_EQ(plan.row_stats().max_length, sp::formats::row_stats(a).max_length) << s.name;
      if (v.prepare == nullptr) {
        EXPECT_EQ(plan.footprint_bytes(), 0u) << s.name;
      }
      const auto x = random_vector<T>(a.cols, 42);
      const auto y0 = random_vector<T>(a.rows, 43);
      const auto d_x = to_device(x);
      const auto d_y = to_device(y0);
      std::vector<T> first;
      for (int repeat = 0; repeat < 2; ++repeat) {  // the same plan twice: nothing consumed by a run
        TESSERA_CUDA(cudaMemcpy(d_y->p, y0.data(), y0.size() * sizeof(T), cudaMemcpyHostToDevice));
        tessera::spmv(plan, static_cast<const T*>(d_x->p), static_cast<T*>(d_y->p),
                      {.alpha = -1.5, .beta = 0.5, .stream = stream()});
        const auto y = download<T>(*d_y, y0.size(), stream());
        expect_close(a, x, y0, -1.5, 0.5, y, variant + " plan " + s.name);
        if (repeat == 0) first = y;
        if (v.info.deterministic && a.rows > 0) {
          EXPECT_EQ(std::memcmp(first.data(), y.data(), y.size() * sizeof(T)), 0) << variant << " " << s.name;
        }
      }
      if (v.info.deterministic && a.rows > 0) {  // the plan runs what the per-call API runs
        const auto d_z = to_device(y0);
        tessera::spmv(dev.view(), static_cast<const T*>(d_x->p), static_cast<T*>(d_z->p),
                      {.alpha = -1.5, .beta = 0.5, .variant = variant, .stream = stream()});
        const auto z = download<T>(*d_z, y0.size(), stream());
        EXPECT_EQ(std::memcmp(first.data(), z.data(), z.size() * sizeof(T)), 0) << variant << " " << s.name;
      }
    }
  }
};

TEST_P(SpmvPlanGpu, MatchesReferenceFloat) { check_all_shapes<float>(); }
TEST_P(SpmvPlanGpu, MatchesReferenceDouble) { check_all_shapes<double>(); }

INSTANTIATE_TEST_SUITE_P(Spmv, SpmvPlanGpu, ::testing::ValuesIn(plan_variants()),
                         [](const auto& info) { return info.param; });

class SpmvPlanGpuApi : public tessera_test::GpuFixture<::testing::Test> {};

// The plan's own pick (no variant named) on the three bench shapes, smaller:
// short rows, regular rows (a format, converted once: footprint > 0),
// irregular rows; each result within the bound.
TEST_F(SpmvPlanGpuApi, PicksByRowStatisticsAndRuns) {
  struct Case {
    const char* name;
    sp::matrices::HostMatrix<float> m;
    const char* want;
  };
  Case cases[] = {{"laplace 64^2", sp::matrices::laplace_2d<float>(64, 3), "csr_scalar_guarded"},
                  {"stencil27 24^3", sp::matrices::stencil_27<float>(24, 3), "jds"},
                  {"power law 20000", sp::matrices::power_law<float>(20000, 20000, 16.0, 5000, 3), "csr_nnz_split"}};
  for (const Case& c : cases) {
    const auto a = c.m.view();
    const DeviceMatrix<float> dev(c.m);
    const auto plan = tessera::spmv_plan(dev.view(), {.stream = stream()});
    EXPECT_EQ(plan.variant(), c.want) << c.name << ": " << plan.reason();
    EXPECT_NEAR(plan.row_stats().cv, tessera::spmv_row_stats_host(a).cv, 1e-9) << c.name;
    if (std::string(c.want) == "jds") {
      EXPECT_GE(plan.footprint_bytes(), std::size_t(a.nnz) * 8) << c.name;
    }
    const auto x = random_vector<float>(a.cols, 5);
    std::vector<float> y0(std::size_t(a.rows), std::numeric_limits<float>::quiet_NaN());  // beta 0: never read
    const auto d_x = to_device(x);
    const auto d_y = to_device(y0);
    tessera::spmv(plan, static_cast<const float*>(d_x->p), static_cast<float*>(d_y->p), {.stream = stream()});
    expect_close(a, x, y0, 1.0, 0.0, download<float>(*d_y, y0.size(), stream()), c.name);
  }
}

// Unnamed, a plan runs where the arrays live: host arrays take a CPU
// variant even on a GPU machine, and that plan runs on host vectors.
TEST_F(SpmvPlanGpuApi, HostArraysMakeACpuPlan) {
  const auto host = sp::matrices::power_law<float>(3000, 2500, 8.0, 400, 7);
  const auto a = host.view();
  const auto plan = tessera::spmv_plan(a, {.stream = stream()});
  EXPECT_EQ(plan.variant(), "cpu_openmp") << plan.reason();
  EXPECT_EQ(plan.footprint_bytes(), 0u);
  EXPECT_EQ(plan.row_stats().nnz, a.nnz);
  const auto x = random_vector<float>(a.cols, 11);
  const auto y0 = random_vector<float>(a.rows, 12);
  auto y = y0;
  tessera::spmv(plan, x.data(), y.data(), {.alpha = 2.0, .beta = -0.5, .stream = stream()});
  expect_close(a, x, y0, 2.0, -0.5, y, "host plan");
  // The host plan refuses device vectors, naming the vector.
  const auto d_x = to_device(x);
  const std::string msg = tessera_test::error_message(
      [&] { tessera::spmv(plan, static_cast<const float*>(d_x->p), y.data(), {.stream = stream()}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "x must point to host memory")) << msg;
}

// Errors: a GPU variant named for host arrays (naming the argument), another
// variant at run time, and vectors that overlap.
TEST_F(SpmvPlanGpuApi, RefusesMisuse) {
  const auto host = sp::matrices::laplace_2d<float>(8, 1);
  for (const char* gpu_variant : {"jds", "csr_scalar_guarded"}) {
    const std::string msg = tessera_test::error_message(
        [&] { (void)tessera::spmv_plan(host.view(), {.variant = gpu_variant, .stream = stream()}); });
    EXPECT_TRUE(tessera_test::has_substr(msg, "row_offsets must point to device memory")) << gpu_variant;
  }
  const DeviceMatrix<float> dev(host);
  const auto plan = tessera::spmv_plan(dev.view(), {.variant = "jds", .stream = stream()});
  const auto d_x = to_device(random_vector<float>(host.cols, 2));
  const auto d_y = to_device(std::vector<float>(std::size_t(host.rows), 0.f));
  auto* x = static_cast<const float*>(d_x->p);
  auto* y = static_cast<float*>(d_y->p);
  EXPECT_THROW(tessera::spmv(plan, x, y, {.variant = "csr_scalar", .stream = stream()}), tessera::Error);
  EXPECT_THROW(tessera::spmv(plan, x, const_cast<float*>(x), {.stream = stream()}), tessera::Error);
  tessera::spmv(plan, x, y, {.stream = stream()});
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
}

}  // namespace
