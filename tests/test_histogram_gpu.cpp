// The product's CUDA histogram rungs, the CUB baseline and the public API on
// a GPU, checked bin by bin against the independent reference of
// histogram_test_support.hpp (the per-rung suite is
// test_histogram_gpu_suite.hpp, which the lab's rows go through too).
// Compiled in CUDA builds only; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "families/histogram/contract.hpp"
#include "histogram_test_support.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/histogram.hpp"
#include "test_gpu_support.hpp"
#include "test_histogram_gpu_suite.hpp"
#include "test_support.hpp"

namespace histogram_gpu_suite {

std::vector<std::string> suite_variant_names() { return gpu_variant_names(); }

// ---- the public API ------------------------------------------------------------

TEST_F(GpuHistogram, ApiDefaultVariantAndEveryVariantByName) {
  constexpr std::size_t n = 1000003;
  std::vector<std::uint8_t> bytes(n);
  harness::fill_random(bytes.data(), n, 11, Distribution::skewed);
  const FloatBins fb{64, -0.5f, 1.5f};
  const auto x = histogram_test::floats_with_specials(n, fb.lo, fb.hi, 12, Distribution::uniform);
  const auto eb = histogram_test::expected_bytes(bytes.data(), n);
  const auto ef = histogram_test::expected_floats(x.data(), n, fb.bins, fb.lo, fb.hi);
  DeviceBuffer<std::uint8_t> db(n);
  DeviceBuffer<float> dx(n);
  db.upload(bytes.data(), n);
  dx.upload(x.data(), n);
  DeviceBuffer<std::uint32_t> counts(256), oor(1);
  device_sync();
  std::vector<std::uint32_t> got(256);
  std::uint32_t got_oor = 0;

  histogram(db.data(), n, counts.data());  // default stream, default variant
  device_sync();
  counts.download(got.data(), 256);
  EXPECT_TRUE(histogram_test::same_counts(got.data(), 0, eb));

  // out_of_range on the host (the call waits), on the device, or not wanted.
  std::uint32_t host_oor = kPoison;
  histogram_even(dx.data(), n, counts.data(), &host_oor, {.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .stream = stream()});
  counts.download(got.data(), fb.bins);
  EXPECT_TRUE(histogram_test::same_counts(got.data(), host_oor, ef));
  oor.fill_bytes(0xA5, stream());
  histogram_even(dx.data(), n, counts.data(), oor.data(), {.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .stream = stream()});
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  oor.download(&got_oor, 1);
  counts.download(got.data(), fb.bins);
  EXPECT_TRUE(histogram_test::same_counts(got.data(), got_oor, ef));
  histogram_even(dx.data(), n, counts.data(), nullptr, {.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .stream = stream()});
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);

  for (const auto& v : histogram_impl::variants_ladder().all()) {
    SCOPED_TRACE(std::string(v.info.name));
    const bool cpu = v.info.backend == Backend::cpu;
    std::vector<std::uint32_t> host_counts(256, kPoison);
    std::uint32_t* out = cpu ? host_counts.data() : counts.data();
    try {
      counts.fill_bytes(0xA5, stream());
      histogram(cpu ? bytes.data() : db.data(), n, out, {.variant = std::string(v.info.name), .stream = stream()});
      ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
      if (!cpu) counts.download(host_counts.data(), 256);
      EXPECT_TRUE(histogram_test::same_counts(host_counts.data(), 0, eb));
      std::uint32_t dropped = kPoison;
      histogram_even(cpu ? x.data() : dx.data(), n, out, &dropped,
                     {.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .variant = std::string(v.info.name), .stream = stream()});
      ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
      if (!cpu) counts.download(host_counts.data(), fb.bins);
      EXPECT_TRUE(histogram_test::same_counts(host_counts.data(), dropped, ef));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "threw: " << e.what();
    }
  }
}

// A workspace of the queried size: the call allocates nothing (the default
// pool's high-water mark stays at zero), counts right; one byte less is an
// error that writes nothing.
TEST_F(GpuHistogram, ApiCallerWorkspaceMeansNoAllocation) {
  constexpr std::size_t n = 1000003;
  const FloatBins fb{64, -0.5f, 1.5f};
  const auto x = histogram_test::floats_with_specials(n, fb.lo, fb.hi, 21, Distribution::uniform);
  const auto e = histogram_test::expected_floats(x.data(), n, fb.bins, fb.lo, fb.hi);
  DeviceBuffer<float> dx(n);
  dx.upload(x.data(), n);
  DeviceBuffer<std::uint32_t> counts(fb.bins);
  device_sync();
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  cudaMemPool_t pool{};
  ASSERT_EQ(cudaDeviceGetDefaultMemPool(&pool, device), cudaSuccess);
  EXPECT_GT(histogram_even_workspace_bytes(n, {.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .variant = "cub_histogram_even"}),
            histogram_even_workspace_bytes(n, {.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .variant = "packed16_atomic"}))
      << "CUB's temporary storage";
  for (const char* variant : {"", "cub_histogram_even", "hot_bin_copies"}) {
    SCOPED_TRACE(variant);
    HistogramEvenOptions o{.bins = fb.bins, .lo = fb.lo, .hi = fb.hi, .variant = variant, .stream = stream()};
    const std::size_t bytes = histogram_even_workspace_bytes(n, o);
    DeviceBytes ws(bytes, "test workspace");
    ws.fill_bytes(0x5A, stream());
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    std::uint64_t zero = 0, high = 1;
    ASSERT_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero), cudaSuccess);
    std::uint32_t dropped = kPoison;  // a host pointer: the word comes from the workspace
    o.workspace = {ws.data(), bytes};
    histogram_even(dx.data(), n, counts.data(), &dropped, o);
    ASSERT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), cudaSuccess);
    EXPECT_EQ(high, 0u) << "the call allocated";
    std::vector<std::uint32_t> got(fb.bins);
    counts.download(got.data(), got.size());
    EXPECT_TRUE(histogram_test::same_counts(got.data(), dropped, e));
    o.workspace = {ws.data(), bytes - 1};
    const std::string msg = tessera_test::error_message([&] { histogram_even(dx.data(), n, counts.data(), &dropped, o); });
    EXPECT_NE(msg.find("workspace"), std::string::npos) << msg;
  }
}

TEST_F(GpuHistogram, ApiEmptyInputZeroesTheCounts) {
  DeviceBuffer<std::uint32_t> counts(4096);
  counts.fill_bytes(0xA5, stream());
  std::uint32_t dropped = kPoison;
  histogram(nullptr, 0, counts.data(), {.stream = stream()});
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  std::vector<std::uint32_t> got(4096);
  counts.download(got.data(), 256);
  for (int b = 0; b < 256; ++b) EXPECT_EQ(got[b], 0u) << b;
  counts.fill_bytes(0xA5, stream());
  histogram_even(nullptr, 0, counts.data(), &dropped, {.bins = 4096, .stream = stream()});
  counts.download(got.data(), 4096);
  for (int b = 0; b < 4096; ++b) EXPECT_EQ(got[b], 0u) << b;
  EXPECT_EQ(dropped, 0u);
}

TEST_F(GpuHistogram, ApiErrorsNameTheProblemAndWriteNothing) {
  constexpr std::size_t n = 1000;
  std::vector<std::uint8_t> bytes(n, 9);
  std::vector<float> x(n, 0.25f);
  DeviceBuffer<std::uint8_t> db(n);
  DeviceBuffer<float> dx(n);
  db.upload(bytes.data(), n);
  dx.upload(x.data(), n);
  DeviceBuffer<std::uint32_t> counts(4096);
  counts.fill_bytes(0x77, stream());
  device_sync();
  auto unchanged = [&] {
    device_sync();
    std::vector<std::uint32_t> now(4096);
    counts.download(now.data(), now.size());
    for (auto c : now)
      if (c != 0x77777777u) return false;
    return true;
  };
  std::string msg = tessera_test::error_message([&] { histogram(bytes.data(), n, counts.data()); });
  EXPECT_NE(msg.find("d_bytes must point to device memory"), std::string::npos) << msg;
  std::vector<std::uint32_t> host_counts(256, 5u);
  msg = tessera_test::error_message([&] { histogram(db.data(), n, host_counts.data()); });
  EXPECT_NE(msg.find("d_counts must point to device memory"), std::string::npos) << msg;
  EXPECT_EQ(host_counts[0], 5u);
  msg = tessera_test::error_message([&] { histogram_even(x.data(), n, counts.data(), nullptr, {.bins = 64}); });
  EXPECT_NE(msg.find("d_x must point to device memory"), std::string::npos) << msg;
  msg = tessera_test::error_message([&] { histogram(db.data(), n, counts.data(), {.variant = "cpu_reference"}); });
  EXPECT_NE(msg.find("host memory"), std::string::npos) << msg;
  msg = tessera_test::error_message([&] { histogram_even(dx.data(), n, counts.data(), nullptr, {.bins = 4096, .variant = "copy_per_8_threads"}); });
  EXPECT_NE(msg.find("copy_per_8_threads"), std::string::npos) << msg;
  msg = tessera_test::error_message([&] { histogram_even(dx.data(), n, counts.data(), nullptr, {.bins = 64, .lo = -1.0f, .hi = 1.0f, .variant = "cub_histogram_even"}); });
  EXPECT_NE(msg.find("cub_histogram_even"), std::string::npos) << msg;
  msg = tessera_test::error_message([&] {
    histogram(db.data(), n, reinterpret_cast<std::uint32_t*>(db.data() + 16));
  });
  EXPECT_NE(msg.find("overlaps"), std::string::npos) << msg;
  msg = tessera_test::error_message([&] { histogram_even(dx.data(), n, counts.data(), nullptr, {.bins = 0}); });
  EXPECT_NE(msg.find("bins = 0"), std::string::npos) << msg;
  EXPECT_TRUE(unchanged());
  // Still works afterwards.
  histogram(db.data(), n, counts.data(), {.stream = stream()});
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  std::vector<std::uint32_t> got(256);
  counts.download(got.data(), 256);
  EXPECT_EQ(got[9], n);
}

}  // namespace histogram_gpu_suite
