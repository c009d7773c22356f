// The GPU checks every CUDA histogram row goes through, bin by bin against
// the independent reference of histogram_test_support.hpp: every size,
// distribution, alignment and bin count, long runs, all-dropped floats,
// workspace garbage, graph capture, and (TESSERA_LARGE_TESTS=1) inputs past
// 2^31 bytes and at the uint32 count limit. The including file defines
// suite_variant_names(), the rows to check: tests/test_histogram_gpu.cpp the
// product's, lab/tests/test_histogram_lab_gpu.cpp the lab's; include it from
// one file per test binary. Every test skips when no device is present.
//
// Inputs are uploaded with synchronous copies and the device is synchronised
// before anything runs on the test's non-blocking stream.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "histogram_test_support.hpp"
#include "families/histogram/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/histogram.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace histogram_gpu_suite {

using namespace tessera;
using harness::Distribution;
using histogram_impl::HistogramCall;
using histogram_impl::HistogramSpec;
using histogram_impl::HistogramVariant;
using histogram_test::Expected;

inline constexpr std::uint32_t kPoison = 0xA5A5A5A5u;
inline constexpr std::size_t kGuard = 8;  // words after the counts that must stay poisoned

// 15, 16, 17: around one 16-byte vector; 127..129: the 128-byte head; the rest
// warp, block and tile boundaries, primes, and a size of many tiles.
inline constexpr std::size_t kByteSizes[] = {0,    1,     2,     15,    16,      17,      31,     32,
                                      33,   127,   128,   129,   255,     256,     257,    1000,
                                      4095, 4097,  12289, 65537, 1000003, (std::size_t(1) << 22) + 7};
inline constexpr std::size_t kFloatSizes[] = {0, 1, 3, 4, 5, 17, 31, 257, 4097, 65537, 1000003};

struct FloatBins {
  int bins;
  float lo, hi;
};
// One bin; few (packed counters); not a power of two over an offset range;
// 256 and 400 (the packed limit region); many (copies); a range whose top
// edge needs the clamp (CUB declines it).
inline constexpr FloatBins kFloatBins[] = {{1, 0.0f, 1.0f},     {64, -0.5f, 1.5f},   {100, -2.0f, 6.0f}, {256, 0.0f, 1.0f},
                                    {400, -0.5f, 1.5f}, {1024, 0.0f, 1.0f}, {4096, -1.0f, 1.0f}};

using tessera_test::device_sync;
using tessera_test::GpuFixture;

using GpuHistogram = GpuFixture<::testing::Test>;

inline HistogramSpec byte_spec(std::size_t n) { return {Dtype::u8, n, 256, 0.0f, 0.0f}; }
inline HistogramSpec float_spec(std::size_t n, const FloatBins& fb) { return {Dtype::f32, n, fb.bins, fb.lo, fb.hi}; }

struct Counts {
  std::vector<std::uint32_t> counts;
  std::uint32_t out_of_range = 0;
};

// Runs a CUDA variant on device input with poisoned counts (+ guard words), a
// poisoned out_of_range (+ one guard word) and a poisoned workspace; checks
// the guards.
inline Counts run_gpu(const HistogramVariant& v, const HistogramSpec& s, const void* d_in, cudaStream_t stream,
               int ws_poison = 0xA5) {
  DeviceBytes ws(v.workspace_bytes(s), "test workspace");
  ws.fill_bytes(ws_poison, stream);
  DeviceBuffer<std::uint32_t> counts(static_cast<std::size_t>(s.bins) + kGuard, "test counts");
  counts.fill_bytes(0xA5, stream);
  DeviceBuffer<std::uint32_t> oor(2, "test out_of_range");
  oor.fill_bytes(0xA5, stream);
  v.run(HistogramCall{s, d_in, counts.data(), oor.data(), ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  Counts r;
  r.counts.resize(counts.size());
  counts.download(r.counts.data(), r.counts.size());
  std::uint32_t o[2];
  oor.download(o, 2);
  r.out_of_range = o[0];
  for (std::size_t g = 0; g < kGuard; ++g) EXPECT_EQ(r.counts[s.bins + g], kPoison) << "wrote past the last bin";
  EXPECT_EQ(o[1], kPoison) << "wrote past out_of_range";
  r.counts.resize(static_cast<std::size_t>(s.bins));
  return r;
}

// Input bytes at `offset` into an allocation surrounded by guard bytes that
// would change the counts if read.
template <class T>
struct DeviceInput {
  DeviceBuffer<T> buf;
  std::vector<T> host;  // offset + n + tail elements
  std::size_t offset;
  DeviceInput(const std::vector<T>& x, std::size_t offset_, std::size_t tail, T guard)
      : buf(offset_ + x.size() + tail + 1, "test input"), offset(offset_) {
    host.assign(offset + x.size() + tail + 1, guard);
    std::copy(x.begin(), x.end(), host.begin() + static_cast<std::ptrdiff_t>(offset));
    buf.upload(host.data(), host.size());
    device_sync();
  }
  const T* data() const { return buf.data() + offset; }
  bool unchanged() const {
    std::vector<T> now(host.size());
    buf.download(now.data(), now.size());
    return std::memcmp(now.data(), host.data(), host.size() * sizeof(T)) == 0;
  }
};

inline void check_bytes(const HistogramVariant& v, std::size_t n, Distribution d, std::size_t offset, cudaStream_t stream) {
  SCOPED_TRACE(::testing::Message() << v.info.name << " bytes n=" << n << " " << harness::to_string(d) << " offset="
                                    << offset);
  std::vector<std::uint8_t> x(n);
  harness::fill_random(x.data(), n, histogram_test::seed_for(std::string(v.info.name), n, offset * 8 + int(d)), d);
  try {
    DeviceInput<std::uint8_t> in(x, offset, 16, 0xEE);
    const Counts got = run_gpu(v, byte_spec(n), in.data(), stream);
    EXPECT_TRUE(histogram_test::same_counts(got.counts.data(), got.out_of_range,
                                            histogram_test::expected_bytes(x.data(), n)));
    if (offset > 0 && n <= 65537) {
      EXPECT_TRUE(in.unchanged()) << "the input was modified";
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw: " << e.what();
  }
}

inline void check_floats(const HistogramVariant& v, std::size_t n, const FloatBins& fb, Distribution d, std::size_t offset,
                  cudaStream_t stream) {
  const HistogramSpec s = float_spec(n, fb);
  if (!v.supports(s)) return;
  SCOPED_TRACE(::testing::Message() << v.info.name << " " << histogram_impl::describe(s) << " "
                                    << harness::to_string(d) << " offset=" << offset);
  const auto x = histogram_test::floats_with_specials(n, fb.lo, fb.hi,
                                                      histogram_test::seed_for(std::string(v.info.name), n, fb.bins + offset), d);
  try {
    DeviceInput<float> in(x, offset, 8, 0.5f * (fb.lo + fb.hi));
    const Counts got = run_gpu(v, s, in.data(), stream);
    EXPECT_TRUE(histogram_test::same_counts(got.counts.data(), got.out_of_range,
                                            histogram_test::expected_floats(x.data(), n, fb.bins, fb.lo, fb.hi)));
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw: " << e.what();
  }
}

// ---- every CUDA variant ------------------------------------------------------

// The rows this binary checks (defined by the including file).
std::vector<std::string> suite_variant_names();

// The CUDA rows of the ladder with role `role` (all of them: std::nullopt).
inline std::vector<std::string> gpu_variant_names(std::optional<Role> role = std::nullopt) {
  std::vector<std::string> names;
  for (const auto& v : histogram_impl::variants_ladder().all())
    if (v.info.backend == Backend::cuda && (!role || v.info.role == *role)) names.emplace_back(v.info.name);
  return names;
}

class GpuHistogramVariant : public GpuFixture<::testing::TestWithParam<std::string>> {
 protected:
  const HistogramVariant& variant() const {
    const HistogramVariant* v = histogram_impl::variants_ladder().find(GetParam());
    EXPECT_NE(v, nullptr);
    return *v;
  }
};

TEST_P(GpuHistogramVariant, BytesAtEverySizeAndDistribution) {
  for (Distribution d : {Distribution::uniform, Distribution::skewed, Distribution::text, Distribution::constant})
    for (std::size_t n : kByteSizes) check_bytes(variant(), n, d, 0, stream());
}

TEST_P(GpuHistogramVariant, BytesAtAnyAlignment) {
  for (std::size_t offset : {1, 3, 7, 8, 13, 15, 64, 127})
    for (std::size_t n : {0, 1, 15, 16, 17, 129, 4097, 65537, 1000003})
      check_bytes(variant(), n, offset % 2 ? Distribution::uniform : Distribution::skewed, offset, stream());
}

TEST_P(GpuHistogramVariant, FloatsEveryBinCountWithSpecials) {
  for (const FloatBins& fb : kFloatBins)
    for (Distribution d : {Distribution::uniform, Distribution::skewed})
      for (std::size_t n : kFloatSizes) check_floats(variant(), n, fb, d, 0, stream());
}

TEST_P(GpuHistogramVariant, FloatsAtAnyAlignment) {
  for (std::size_t offset : {1, 2, 3, 31})
    for (std::size_t n : {1, 3, 5, 33, 4097, 1000003})
      check_floats(variant(), n, {64, -0.5f, 1.5f}, Distribution::uniform, offset, stream());
}

TEST_P(GpuHistogramVariant, LongRunsOfOneValue) {
  // 2^27 equal bytes: every counter of one bin fills up. The 8-bit packed
  // counters flush several times per thread (every 240 bytes), the 16-bit
  // ones hold; one count ends at 2^27.
  const auto& v = variant();
  if (v.info.step == 2) GTEST_SKIP() << "2^27 same-address global atomics: slow, and step 2 has no private counters";
  constexpr std::size_t n = std::size_t(1) << 27;
  DeviceBuffer<std::uint8_t> d(n + 16);
  TESSERA_CUDA(cudaMemset(d.data(), 201, n + 16));
  device_sync();
  for (std::size_t offset : {std::size_t(0), std::size_t(5)}) {
    const Counts got = run_gpu(v, byte_spec(n), d.data() + offset, stream());
    for (int b = 0; b < 256; ++b) ASSERT_EQ(got.counts[b], b == 201 ? n : 0u) << "bin " << b << " offset " << offset;
  }
  // Floats: one value in range, everything in one bin.
  constexpr std::size_t nf = std::size_t(1) << 25;
  std::vector<float> x(nf, 0.625f);
  DeviceBuffer<float> df(nf);
  df.upload(x.data(), nf);
  device_sync();
  const HistogramSpec s{Dtype::f32, nf, 64, 0.0f, 1.0f};
  if (v.supports(s)) {
    const Counts got = run_gpu(v, s, df.data(), stream());
    for (int b = 0; b < 64; ++b) ASSERT_EQ(got.counts[b], b == 40 ? nf : 0u) << "bin " << b;
    EXPECT_EQ(got.out_of_range, 0u);
  }
}

TEST_P(GpuHistogramVariant, AllDroppedFloats) {
  // No value in range (the hot-bin vote sees only dropped values).
  for (float value : {std::numeric_limits<float>::quiet_NaN(), 2.0f, -std::numeric_limits<float>::infinity()}) {
    const std::size_t n = 1000003;
    const std::vector<float> x(n, value);
    DeviceBuffer<float> d(n);
    d.upload(x.data(), n);
    device_sync();
    const HistogramSpec s{Dtype::f32, n, 1024, 0.0f, 1.0f};
    if (!variant().supports(s)) continue;
    const Counts got = run_gpu(variant(), s, d.data(), stream());
    for (int b = 0; b < 1024; ++b) ASSERT_EQ(got.counts[b], 0u) << "bin " << b;
    EXPECT_EQ(got.out_of_range, n);
  }
}

TEST_P(GpuHistogramVariant, WorkspaceGarbageDoesNotMatterAndRunsRepeat) {
  constexpr std::size_t n = 1000003;
  std::vector<std::uint8_t> x(n);
  harness::fill_random(x.data(), n, 31, Distribution::text);
  DeviceBuffer<std::uint8_t> d(n);
  d.upload(x.data(), n);
  device_sync();
  const auto e = histogram_test::expected_bytes(x.data(), n);
  for (int poison : {0x00, 0xFF, 0x5A}) {
    const Counts got = run_gpu(variant(), byte_spec(n), d.data(), stream(), poison);
    EXPECT_TRUE(histogram_test::same_counts(got.counts.data(), got.out_of_range, e)) << "workspace poison " << poison;
  }
}

TEST_P(GpuHistogramVariant, RunCanBeCapturedInAGraph) {
  // A run only enqueues work: capture it (global mode forbids unsafe calls),
  // replay it with fresh garbage in the outputs.
  constexpr std::size_t n = 65537;
  const FloatBins fb{1024, 0.0f, 1.0f};
  const auto x = histogram_test::floats_with_specials(n, fb.lo, fb.hi, 77, Distribution::skewed);
  DeviceBuffer<float> d(n);
  d.upload(x.data(), n);
  device_sync();
  const HistogramSpec s = float_spec(n, fb);
  const HistogramVariant& v = variant();
  if (!v.supports(s)) GTEST_SKIP() << "does not take 1024 bins";
  const auto e = histogram_test::expected_floats(x.data(), n, fb.bins, fb.lo, fb.hi);
  (void)run_gpu(v, s, d.data(), stream());  // loads the kernels, fills the caches
  DeviceBytes ws(v.workspace_bytes(s));
  DeviceBuffer<std::uint32_t> counts(fb.bins), oor(1);
  device_sync();
  const tessera_test::CapturedGraph graph(
      stream(), [&] { v.run(HistogramCall{s, d.data(), counts.data(), oor.data(), ws.data(), stream()}); });
  ASSERT_TRUE(graph.ok());
  for (int replay = 0; replay < 3; ++replay) {
    counts.fill_bytes(0x11 * (replay + 1), stream());
    oor.fill_bytes(0x22, stream());
    ws.fill_bytes(0x33 * replay, stream());
    ASSERT_EQ(graph.launch(stream()), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    std::vector<std::uint32_t> got(fb.bins);
    std::uint32_t got_oor = 0;
    counts.download(got.data(), got.size());
    oor.download(&got_oor, 1);
    EXPECT_TRUE(histogram_test::same_counts(got.data(), got_oor, e)) << "replay " << replay;
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuHistogramVariant);
INSTANTIATE_TEST_SUITE_P(Histogram, GpuHistogramVariant, ::testing::ValuesIn(suite_variant_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// ---- past 2^31 bytes and at the uint32 limit (TESSERA_LARGE_TESTS=1) ----------

inline bool large_tests_enabled() {
  const char* env = std::getenv("TESSERA_LARGE_TESTS");
  return env != nullptr && std::string(env) == "1";
}

// The suite's rows from step 6 on: the others take seconds at these sizes.
inline std::vector<const HistogramVariant*> large_variants() {
  std::vector<const HistogramVariant*> out;
  for (const std::string& name : suite_variant_names()) {
    const HistogramVariant* v = histogram_impl::variants_ladder().find(name);
    if (v != nullptr && v->info.step >= 6) out.push_back(v);
  }
  return out;
}

TEST_F(GpuHistogram, LargePast2To31Bytes) {
  if (!large_tests_enabled()) GTEST_SKIP() << "set TESSERA_LARGE_TESTS=1 to count 2^31 + 17 bytes";
  constexpr std::size_t n = (std::size_t(1) << 31) + 17;
  std::vector<std::uint8_t> x(n);
  harness::fill_random(x.data(), n, 2024, Distribution::text);
  x[n - 1] = 0xFF;  // a byte text never has, at the very end
  const auto e = histogram_test::expected_bytes(x.data(), n);
  DeviceBuffer<std::uint8_t> d(n, "large test input");
  d.upload(x.data(), n);
  device_sync();
  x = {};
  for (const HistogramVariant* pv : large_variants()) {
    const HistogramVariant& v = *pv;
    SCOPED_TRACE(std::string(v.info.name));
    try {
      const Counts got = run_gpu(v, byte_spec(n), d.data(), stream());
      EXPECT_TRUE(histogram_test::same_counts(got.counts.data(), got.out_of_range, e));
      EXPECT_EQ(got.counts[0xFF], 1u);
    } catch (const std::exception& ex) {
      ADD_FAILURE() << "threw: " << ex.what();
    }
  }
}

TEST_F(GpuHistogram, LargeAtTheUint32CountLimit) {
  // n = 2^32 - 1 equal bytes: one count reaches the largest uint32 (and the
  // 16-bit packed counters flush mid-sweep: ~85 KB a thread).
  if (!large_tests_enabled()) GTEST_SKIP() << "set TESSERA_LARGE_TESTS=1 to count 2^32 - 1 bytes";
  constexpr std::size_t n = histogram_impl::MAX_N;
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  if (free_b < n + (std::size_t(1) << 30)) GTEST_SKIP() << "needs " << n << " bytes of device memory";
  DeviceBuffer<std::uint8_t> d(n, "large test input");
  TESSERA_CUDA(cudaMemset(d.data(), 42, n));
  device_sync();
  for (const HistogramVariant* pv : large_variants()) {
    const HistogramVariant& v = *pv;
    SCOPED_TRACE(std::string(v.info.name));
    try {
      const Counts got = run_gpu(v, byte_spec(n), d.data(), stream());
      for (int b = 0; b < 256; ++b) ASSERT_EQ(got.counts[b], b == 42 ? 0xFFFFFFFFu : 0u) << "bin " << b;
    } catch (const std::exception& ex) {
      ADD_FAILURE() << "threw: " << ex.what();
    }
  }
}

}  // namespace histogram_gpu_suite
