// The public calls on host memory: each family's CPU variant by name, in
// every build and on every machine, and the default call where there is no
// GPU (a CPU-only build, or a CUDA build on a machine without a driver or
// device, as on CI). Such calls must run on the host, never ask the CUDA
// driver about a host pointer; a GPU variant there is refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/gpu_present.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/compact.hpp"
#include "tessera/core/error.hpp"
#include "tessera/gemm.hpp"
#include "tessera/histogram.hpp"
#include "tessera/reduce.hpp"
#include "tessera/scan.hpp"
#include "tessera/transpose.hpp"

namespace {

using tessera::api::gpu_present;

// The CPU variant by name, and "" (the API's default) where there is no GPU.
std::vector<std::string> host_variants(const char* cpu_variant) {
  std::vector<std::string> out{cpu_variant};
  if (!gpu_present()) out.emplace_back();
  return out;
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = dist(gen);
  return x;
}

TEST(HostCalls, Reduce) {
  const auto x = random_floats(100'003, 1);
  double exact = 0, magnitude = 0;
  for (float v : x) exact += v, magnitude += std::fabs(v);
  for (const auto& variant : host_variants("cpu_openmp")) {
    SCOPED_TRACE("variant '" + variant + "'");
    EXPECT_NEAR(tessera::reduce(x.data(), x.size(), {.variant = variant}), exact, 1e-6 * magnitude);
  }
}

TEST(HostCalls, InclusiveScan) {
  std::mt19937 gen(2);
  std::vector<std::int32_t> x(50'021), y(x.size());
  for (auto& v : x) v = static_cast<std::int32_t>(gen() % 2001) - 1000;
  for (const auto& variant : host_variants("cpu_openmp")) {
    SCOPED_TRACE("variant '" + variant + "'");
    tessera::inclusive_scan(x.data(), x.size(), y.data(), {.variant = variant});
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      sum += x[i];
      ASSERT_EQ(y[i], sum) << "at " << i;
    }
  }
}

TEST(HostCalls, Transpose) {
  const std::size_t rows = 37, cols = 53;
  const auto x = random_floats(rows * cols, 3);
  std::vector<float> y(x.size());
  for (const auto& variant : host_variants("cpu_openmp_blocked")) {
    SCOPED_TRACE("variant '" + variant + "'");
    tessera::transpose(x.data(), rows, cols, y.data(), {.variant = variant});
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) ASSERT_EQ(y[c * rows + r], x[r * cols + c]) << r << "," << c;
  }
}

TEST(HostCalls, Gemm) {
  const std::size_t m = 17, n = 19, k = 23;
  const auto a = random_floats(m * k, 4), b = random_floats(k * n, 5);
  std::vector<float> c(m * n);
  for (const auto& variant : host_variants("cpu_openmp")) {
    SCOPED_TRACE("variant '" + variant + "'");
    tessera::gemm(a.data(), b.data(), m, n, k, c.data(), {.variant = variant});
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double want = 0;
        for (std::size_t p = 0; p < k; ++p) want += double(a[i * k + p]) * b[p * n + j];
        ASSERT_NEAR(c[i * n + j], want, 1e-5 * k) << i << "," << j;
      }
  }
}

TEST(HostCalls, Histogram) {
  std::mt19937 gen(6);
  std::vector<std::uint8_t> bytes(70'001);
  std::vector<std::uint32_t> want(256, 0);
  for (auto& v : bytes) v = static_cast<std::uint8_t>(gen()), ++want[v];
  for (const auto& variant : host_variants("cpu_openmp")) {
    SCOPED_TRACE("variant '" + variant + "'");
    std::vector<std::uint32_t> counts(256, 7);
    tessera::histogram(bytes.data(), bytes.size(), counts.data(), {.variant = variant});
    EXPECT_EQ(counts, want);
  }
}

TEST(HostCalls, CompactIf) {
  const auto x = random_floats(40'009, 7);
  std::vector<float> want;
  for (float v : x)
    if (v > 0.25f) want.push_back(v);
  for (const auto& variant : host_variants("cpu_openmp")) {
    SCOPED_TRACE("variant '" + variant + "'");
    std::vector<float> out(x.size());
    const auto kept =
        tessera::compact_if(x.data(), x.size(), out.data(), {.pred = tessera::greater_than(0.25f), .variant = variant});
    ASSERT_EQ(kept, static_cast<std::int64_t>(want.size()));
    out.resize(want.size());
    EXPECT_EQ(out, want);
  }
}

TEST(HostCalls, BatchedScan) {
  const std::size_t rows = 5, len = 301;
  const std::vector<float> x(rows * len, 1.0f);
  for (const auto& variant : host_variants("cpu_openmp")) {
    SCOPED_TRACE("variant '" + variant + "'");
    std::vector<float> y(x.size());
    tessera::batched_scan(x.data(), rows, len, y.data(),
                          {.direction = tessera::ScanDirection::forward, .variant = variant});
    for (std::size_t r = 0; r < rows; ++r) ASSERT_EQ(y[r * len + len - 1], float(len)) << "row " << r;
  }
}

// Where there is no GPU, the default calls name the CPU variants...
TEST(HostCalls, DefaultsWithoutGpuAreTheCpuVariants) {
  if (gpu_present()) GTEST_SKIP() << "a GPU is present: the defaults are GPU variants";
  EXPECT_EQ(tessera::reduce_default_variant(tessera::Dtype::f32, tessera::Op::sum, tessera::Accum::native, 1000),
            "cpu_openmp");
  EXPECT_EQ(tessera::gemm_default_variant(10, 10, 10), "cpu_openmp");
  EXPECT_EQ(tessera::transpose_default_variant(tessera::Dtype::f32, 10, 10), "cpu_openmp_blocked");
  EXPECT_EQ(tessera::histogram_default_variant(tessera::Dtype::u8, 256, 1000), "cpu_openmp");
}

// ...and a GPU variant asked for by name is refused as such.
TEST(HostCalls, GpuVariantWithoutGpuIsRefusedByName) {
  if (gpu_present() || !TESSERA_HAVE_CUDA) GTEST_SKIP() << "needs a CUDA build on a machine without a GPU";
  const auto x = random_floats(1000, 8);
  try {
    (void)tessera::reduce(x.data(), x.size(), {.variant = "single_pass"});
    FAIL() << "a GPU variant ran without a GPU";
  } catch (const tessera::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'single_pass' runs on a GPU and no GPU was found"), std::string::npos) << what;
  }
}

}  // namespace
