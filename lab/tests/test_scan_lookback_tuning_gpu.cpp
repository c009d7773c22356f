// The lab's step-9 tuning rows of the scan ladder (lab/scan/tuning_lookback.cuh)
// on a GPU: the product's per-row suite over each of them, the exact-integer
// contention check, the public API by name, and sizes past 2^31
// (TESSERA_LARGE_TESTS=1). tessera_lab_tests registers the rows before any
// test runs; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "families/scan/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/scan.hpp"
#include "test_scan_gpu_rows.hpp"
#include "test_scan_gpu_support.hpp"

namespace {

using namespace tessera;
using scan_impl::ScanVariant;
using tessera_test::ScanCombo;
using tessera_test::ScanGpuVariant;

std::vector<const ScanVariant*> tuning_rows() {
  return tessera_test::scan_gpu_rows([](const ScanVariant& v) { return v.info.role == Role::tuning; });
}

INSTANTIATE_TEST_SUITE_P(ScanTuning, ScanGpuVariant, ::testing::ValuesIn(tessera_test::gpu_cases(tuning_rows())),
                         tessera_test::gpu_case_name);

using ScanTuningTest = tessera_test::GpuFixture<::testing::Test>;

TEST(ScanTuningRows, AreRegisteredAtStep9) {
  const auto rows = tuning_rows();
  EXPECT_EQ(rows.size(), 12u);
  for (const ScanVariant* v : rows) {
    EXPECT_EQ(v->info.step, 9) << v->info.name;
    EXPECT_FALSE(v->info.deterministic) << v->info.name;
    // 4-byte elements with the native accumulator, nothing else.
    EXPECT_TRUE(v->supports({Dtype::u32, Op::max, Accum::native, true, 1})) << v->info.name;
    EXPECT_FALSE(v->supports({Dtype::f64, Op::sum, Accum::native, false, 1})) << v->info.name;
    EXPECT_FALSE(v->supports({Dtype::f32, Op::sum, Accum::dfloat, false, 1})) << v->info.name;
  }
}

TEST_F(ScanTuningTest, LookbackUnderContentionIsExactOnIntegers) {
  for (const ScanVariant* v : tuning_rows()) tessera_test::check_exact_under_contention(*v, stream());
}

TEST_F(ScanTuningTest, ApiReachesEveryRowByName) {
  const std::size_t n = 100003;
  const auto x = tessera_test::scan_input<float>(n, harness::Distribution::uniform, "lab-by-name");
  const ScanCombo c{Dtype::f32, Op::sum, Accum::native};
  const auto ref = tessera_test::scan_reference(x.data(), n, c.op, true);
  DeviceBuffer<float> d(n), out(n);
  d.upload(x.data(), n);
  tessera_test::device_sync();
  for (const ScanVariant* v : tuning_rows()) {
    SCOPED_TRACE(std::string(v->info.name));
    exclusive_scan(d.data(), n, out.data(), {.variant = std::string(v->info.name), .stream = stream()});
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    std::vector<float> got(n);
    out.download(got.data(), n);
    EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, true));
  }
}

TEST_F(ScanTuningTest, LargePast2To31Elements) {
  std::string why;
  if (!tessera_test::large_scan_enabled(why)) GTEST_SKIP() << why;
  const std::size_t ran = tessera_test::check_int32_past_2_31(
      {"lookback_large_tiles", "lookback_window32", "lookback_384_threads", "lookback_512_threads",
       "lookback_persistent", "lookback_early_publish", "lookback_bulk_window128"},
      stream(), [](auto&, const auto&) {});
  EXPECT_EQ(ran, 7u) << "a variant stopped the loop early";
}

}  // namespace
