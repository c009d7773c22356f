// scan_impl::exclusive_sum, the entry other patterns build on: uint32 and
// int64 values against a host loop, with the total, in place, at any pointer
// alignment, under graph capture, and its errors. Skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "families/scan/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using harness::Distribution;
using tessera_test::device_sync;

using ExclusiveSumTest = tessera_test::GpuFixture<::testing::Test>;

// Tile of the primary policy: 256 threads x 16 uint32 (8 int64).
constexpr std::size_t kSizes[] = {0,    1,     2,     31,    32,    33,      255,     256,    257,
                                  4095, 4096,  4097,  8191,  8193,  16383,   16384,   16385,  65537,
                                  99991, 262147, 1000003, (std::size_t(1) << 24) + 7};

template <class T>
std::vector<T> expected_exclusive(const std::vector<T>& x, T& total) {
  std::vector<T> y(x.size());
  using U = std::make_unsigned_t<T>;
  U s = 0;  // wraps
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = static_cast<T>(s);
    s = static_cast<U>(s + static_cast<U>(x[i]));
  }
  total = static_cast<T>(s);
  return y;
}

// Runs exclusive_sum on x placed `in_offset` elements into its buffer, output
// `out_offset` elements into another (or in place), and compares everything,
// including the guard elements around the output.
template <class T>
void check_case(const std::vector<T>& x, std::size_t in_offset, std::size_t out_offset, bool in_place,
                cudaStream_t stream, const char* what) {
  const std::size_t n = x.size();
  SCOPED_TRACE(::testing::Message() << what << " n=" << n << " in+" << in_offset << " out+" << out_offset
                                    << (in_place ? " in place" : ""));
  constexpr std::size_t GUARD = 5;
  const T poison = static_cast<T>(0x5A5A5A5A5A5A5A5Aull);
  std::vector<T> in_host(in_offset + n + GUARD, poison);
  std::copy(x.begin(), x.end(), in_host.begin() + static_cast<std::ptrdiff_t>(in_offset));
  DeviceBuffer<T> d_in(in_host.size()), d_out(out_offset + n + GUARD), d_total(2);
  d_in.upload(in_host.data(), in_host.size());
  std::vector<T> out_host(d_out.size(), poison);
  d_out.upload(out_host.data(), out_host.size());
  const std::vector<T> total_host(2, poison);
  d_total.upload(total_host.data(), 2);
  device_sync();

  const std::size_t ws_bytes = scan_impl::exclusive_sum_workspace_bytes(dtype_of<T>(), n);
  DeviceBytes ws(ws_bytes, "test workspace");
  ws.fill_bytes(0xA5, stream);  // garbage on entry
  T* in = d_in.data() + in_offset;
  T* out = in_place ? in : d_out.data() + out_offset;
  scan_impl::exclusive_sum(in, out, n, d_total.data(), ws.data(), ws_bytes, stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);

  T total_expected{};
  const std::vector<T> y = expected_exclusive(x, total_expected);
  std::vector<T> got(in_place ? in_host.size() : out_host.size());
  (in_place ? d_in : d_out).download(got.data(), got.size());
  const std::size_t at = in_place ? in_offset : out_offset;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n && bad < 5; ++i)
    if (got[at + i] != y[i]) {
      ADD_FAILURE() << "out[" << i << "] = " << got[at + i] << ", expected " << y[i];
      ++bad;
    }
  for (std::size_t i = 0; i < at; ++i) EXPECT_EQ(got[i], in_place ? in_host[i] : poison) << "before the output";
  for (std::size_t i = at + n; i < got.size(); ++i) EXPECT_EQ(got[i], poison) << "after the output";
  T total[2];
  d_total.download(total, 2);
  EXPECT_EQ(total[0], total_expected) << "total";
  EXPECT_EQ(total[1], poison) << "wrote past the total";
}

template <class T>
std::vector<T> random_values(std::size_t n, Distribution dist, std::uint64_t salt) {
  std::vector<T> x(n);
  harness::fill_random(x.data(), n, tessera_test::seed_for("exclusive_sum", n, salt), dist);
  return x;
}

std::vector<std::uint32_t> random_flags(std::size_t n) {
  std::vector<std::uint32_t> f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<std::uint32_t>(harness::mix64(77, i) & 1u);
  return f;
}

TEST_F(ExclusiveSumTest, Uint32FlagsAndCounts) {
  for (std::size_t n : kSizes) {
    check_case(random_flags(n), 0, 0, false, stream(), "flags");
    check_case(random_values<std::uint32_t>(n, Distribution::small, 1), 0, 0, false, stream(), "counts");
  }
}

TEST_F(ExclusiveSumTest, Uint32WrapsModulo2To32) {
  for (std::size_t n : {std::size_t(33), std::size_t(65537), std::size_t(1000003)})
    check_case(random_values<std::uint32_t>(n, Distribution::uniform, 2), 0, 0, false, stream(), "full range");
}

TEST_F(ExclusiveSumTest, Int64WithNegativesAndWrap) {
  for (std::size_t n : kSizes) {
    check_case(random_values<std::int64_t>(n, Distribution::small, 3), 0, 0, false, stream(), "small");
    if (n % 3 == 0) check_case(random_values<std::int64_t>(n, Distribution::uniform, 4), 0, 0, false, stream(), "wrap");
  }
}

TEST_F(ExclusiveSumTest, InPlaceAndAnyAlignment) {
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4097), std::size_t(65537), std::size_t(1000003)}) {
    const auto x32 = random_values<std::uint32_t>(n, Distribution::small, 5);
    const auto x64 = random_values<std::int64_t>(n, Distribution::small, 6);
    check_case(x32, 0, 0, true, stream(), "in place");
    check_case(x64, 0, 0, true, stream(), "in place");
    for (std::size_t off : {std::size_t(1), std::size_t(2), std::size_t(3)}) {
      check_case(x32, off, off, false, stream(), "same misalignment");
      check_case(x32, off, 0, false, stream(), "input misaligned");
      check_case(x32, 0, off, false, stream(), "output misaligned");
      check_case(x32, off, off, true, stream(), "in place, misaligned");
      check_case(x64, off, 0, false, stream(), "int64 input misaligned");
      check_case(x64, off, off, true, stream(), "int64 in place, misaligned");
    }
  }
}

TEST_F(ExclusiveSumTest, TotalIsOptionalAndEmptyInputWritesZero) {
  const std::size_t n = 20000;
  const auto x = random_flags(n);
  DeviceBuffer<std::uint32_t> d(n), out(n);
  d.upload(x.data(), n);
  device_sync();
  const std::size_t ws_bytes = scan_impl::exclusive_sum_workspace_bytes(Dtype::u32, n);
  DeviceBytes ws(ws_bytes);
  scan_impl::exclusive_sum(d.data(), out.data(), n, nullptr, ws.data(), ws_bytes, stream());
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  std::uint32_t total = 0;
  const auto y = expected_exclusive(x, total);
  std::vector<std::uint32_t> got(n);
  out.download(got.data(), n);
  EXPECT_EQ(got, y);

  EXPECT_EQ(scan_impl::exclusive_sum_workspace_bytes(Dtype::u32, 0), 0u);
  DeviceBuffer<std::int64_t> t64(1);
  const std::int64_t junk = -99;
  t64.upload(&junk, 1);
  device_sync();
  scan_impl::exclusive_sum(static_cast<const std::int64_t*>(nullptr), nullptr, 0, t64.data(), nullptr, 0, stream());
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  std::int64_t t = -1;
  t64.download(&t, 1);
  EXPECT_EQ(t, 0);
}

TEST_F(ExclusiveSumTest, CapturedInAGraphAndReplayed) {
  const std::size_t n = 300007;
  const auto x = random_values<std::uint32_t>(n, Distribution::small, 7);
  std::uint32_t total_expected = 0;
  const auto y = expected_exclusive(x, total_expected);
  DeviceBuffer<std::uint32_t> d(n), out(n), total(1);
  d.upload(x.data(), n);
  device_sync();
  const std::size_t ws_bytes = scan_impl::exclusive_sum_workspace_bytes(Dtype::u32, n);
  DeviceBytes ws(ws_bytes);
  // A first ordinary run loads the module before the capture.
  scan_impl::exclusive_sum(d.data(), out.data(), n, total.data(), ws.data(), ws_bytes, stream());
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeGlobal), cudaSuccess);
  scan_impl::exclusive_sum(d.data(), out.data(), n, total.data(), ws.data(), ws_bytes, stream());
  ASSERT_EQ(cudaStreamEndCapture(stream(), &graph), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int replay = 0; replay < 3; ++replay) {
    ws.fill_bytes(0x11 * (replay + 1), stream());  // the run must not depend on the workspace's contents
    out.fill_bytes(0xFF, stream());
    ASSERT_EQ(cudaGraphLaunch(exec, stream()), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    std::vector<std::uint32_t> got(n);
    out.download(got.data(), n);
    EXPECT_EQ(got, y) << "replay " << replay;
    std::uint32_t t = 0;
    total.download(&t, 1);
    EXPECT_EQ(t, total_expected);
  }
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
}

TEST_F(ExclusiveSumTest, Errors) {
  using tessera_test::error_message;
  using tessera_test::has_substr;
  EXPECT_TRUE(has_substr(error_message([] { (void)scan_impl::exclusive_sum_workspace_bytes(Dtype::f32, 10); }),
                         "float"));
  const std::size_t n = 5000;
  DeviceBuffer<std::uint32_t> d(n);
  const std::size_t ws_bytes = scan_impl::exclusive_sum_workspace_bytes(Dtype::u32, n);
  DeviceBytes ws(ws_bytes);
  EXPECT_TRUE(has_substr(error_message([&] {
                           scan_impl::exclusive_sum(d.data(), d.data(), n, nullptr, ws.data(), ws_bytes - 16, stream());
                         }),
                         "workspace"));
  EXPECT_TRUE(has_substr(error_message([&] {
                           scan_impl::exclusive_sum(static_cast<const std::uint32_t*>(nullptr), d.data(), n, nullptr,
                                                    ws.data(), ws_bytes, stream());
                         }),
                         "null"));
}

// Past 2^31 elements (TESSERA_LARGE_TESTS=1): 64-bit indexing and int64 counts.
TEST_F(ExclusiveSumTest, LargePast2To31) {
  const char* env = std::getenv("TESSERA_LARGE_TESTS");
  if (env == nullptr || std::string(env) != "1") GTEST_SKIP() << "set TESSERA_LARGE_TESTS=1 for sizes past 2^31";
  constexpr std::size_t n = (std::size_t(1) << 31) + 4099;
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  if (free_b < 2 * n * sizeof(std::uint32_t) + (std::size_t(1) << 30)) GTEST_SKIP() << "not enough device memory";
  std::vector<std::uint32_t> x = random_flags(n);
  x[n - 1] = 1;
  DeviceBuffer<std::uint32_t> d(n), out(n), total(1);
  d.upload(x.data(), n);
  device_sync();
  const std::size_t ws_bytes = scan_impl::exclusive_sum_workspace_bytes(Dtype::u32, n);
  DeviceBytes ws(ws_bytes);
  scan_impl::exclusive_sum(d.data(), out.data(), n, total.data(), ws.data(), ws_bytes, stream());
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  std::uint32_t t = 0;
  const auto y = expected_exclusive(x, t);
  std::vector<std::uint32_t> got(n);
  out.download(got.data(), n);
  std::size_t first_bad = n;
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != y[i]) {
      first_bad = i;
      break;
    }
  EXPECT_EQ(first_bad, n) << "first wrong element";
  std::uint32_t tg = 0;
  total.download(&tg, 1);
  EXPECT_EQ(tg, t);
}

}  // namespace
