// The per-row GPU checks of the scan ladder as one parameterised suite
// (ScanGpuVariant): every size edge, both directions, in place and
// misaligned, other distributions, extremes, NaN, graph capture. A test
// binary includes this header once and instantiates the suite over its rows:
// tessera_tests over the product's ladder (test_scan_gpu.cpp),
// tessera_lab_tests over the lab's tuning rows (lab/tests/).
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "test_scan_gpu_support.hpp"

namespace tessera_test {

using tessera::harness::Distribution;

// Edges of every row: warps, 512-element Kogge-Stone sections, 1024-element
// Brent-Kung sections, 2048 / 4096-element three-phase sections, look-back
// tiles of 2048 (128 x 16 floats), 4096 (256 x 16 floats; 256 x 8 doubles =
// 2048), 8192 (256 x 32 floats), 12288 (256 x 48 floats: the early-publishing
// and bulk kernels); primes; three levels of sections.
inline constexpr std::size_t kScanSizes[] = {0,     1,     2,     31,    32,    33,    255,   256,    257,
                                             511,   512,   513,   1023,  1024,  1025,  2047,  2048,   2049,
                                             4095,  4096,  4097,  8191,  8192,  8193,  12287, 12288,  12289,
                                             16383, 16385, 36865, 65537, 99991, 262147, 1000003};

struct GpuCase {
  std::string variant;
  ScanCombo combo;
};

// (row, combination) for every row and every combination it supports.
inline std::vector<GpuCase> gpu_cases(const std::vector<const tessera::scan_impl::ScanVariant*>& rows) {
  std::vector<GpuCase> cases;
  for (const auto* v : rows)
    for (const ScanCombo& c : scan_combos())
      if (v->supports(scan_spec(c, false, 1000))) cases.push_back({std::string(v->info.name), c});
  return cases;
}

inline std::string gpu_case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  return identifier(info.param.variant + "_" + scan_combo_name(info.param.combo));
}

class ScanGpuVariant : public GpuFixture<::testing::TestWithParam<GpuCase>> {
 protected:
  const tessera::scan_impl::ScanVariant& variant() const {
    return tessera::scan_impl::variants_ladder().at(GetParam().variant, "test");
  }
};

TEST_P(ScanGpuVariant, InclusiveAtEverySize) {
  const ScanCombo c = GetParam().combo;
  with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : kScanSizes)
      check_scan_case<T>(variant(), c, false, scan_input<T>(n, Distribution::uniform, "incl"), stream());
  });
}

TEST_P(ScanGpuVariant, ExclusiveAtEverySize) {
  const ScanCombo c = GetParam().combo;
  with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : kScanSizes)
      check_scan_case<T>(variant(), c, true, scan_input<T>(n, Distribution::uniform, "excl"), stream());
  });
}

TEST_P(ScanGpuVariant, InPlaceAndMisaligned) {
  const ScanCombo c = GetParam().combo;
  with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4097), std::size_t(65537), std::size_t(262147)})
      for (bool ex : {false, true}) {
        const auto x = scan_input<T>(n, Distribution::uniform, "place", ex);
        check_scan_case<T>(variant(), c, ex, x, stream(), {.in_place = true}, "in place");
        check_scan_case<T>(variant(), c, ex, x, stream(), {.in_offset = 1, .out_offset = 1}, "both +1");
        check_scan_case<T>(variant(), c, ex, x, stream(), {.in_offset = 3, .out_offset = 0}, "input +3");
        check_scan_case<T>(variant(), c, ex, x, stream(), {.in_offset = 0, .out_offset = 1}, "output +1");
        check_scan_case<T>(variant(), c, ex, x, stream(), {.in_offset = 1, .in_place = true}, "in place +1");
      }
  });
}

TEST_P(ScanGpuVariant, OtherDistributions) {
  const ScanCombo c = GetParam().combo;
  with_scan_type(c.dtype, [&]<class T>() {
    for (Distribution d : {Distribution::small, Distribution::skewed, Distribution::constant})
      for (std::size_t n : {std::size_t(33), std::size_t(65537), std::size_t(1000003)})
        check_scan_case<T>(variant(), c, false, scan_input<T>(n, d, "dist"), stream());
  });
}

TEST_P(ScanGpuVariant, ExtremesReachEveryLaterOutput) {
  // A unique extreme value anywhere must show in every output after it,
  // whichever block, tile or level it lands in.
  const ScanCombo c = GetParam().combo;
  if (c.op == tessera::Op::sum) GTEST_SKIP() << "min/max property";
  with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : {std::size_t(4097), std::size_t(1000003)})
      for (std::size_t pos : {std::size_t(0), std::size_t(511), std::size_t(4096), n / 2 + 1, n - 1}) {
        auto x = scan_input<T>(n, Distribution::small, "extreme", pos);
        x[pos] = c.op == tessera::Op::min ? std::numeric_limits<T>::lowest() / 2 : std::numeric_limits<T>::max() / 2;
        check_scan_case<T>(variant(), c, false, x, stream(), {}, "extreme");
        check_scan_case<T>(variant(), c, true, x, stream(), {}, "extreme");
      }
  });
}

TEST_P(ScanGpuVariant, MinMaxPropagateNaN) {
  const ScanCombo c = GetParam().combo;
  if (c.op == tessera::Op::sum) GTEST_SKIP() << "min/max property";
  with_scan_type(c.dtype, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      for (std::size_t n : {std::size_t(33), std::size_t(65537), std::size_t(1000003)})
        for (std::size_t pos : {std::size_t(0), n / 2, n - 1}) {
          auto x = scan_input<T>(n, Distribution::uniform, "nan", pos);
          x[pos] = std::numeric_limits<T>::quiet_NaN();
          const auto y = run_scan_gpu<T>(variant(), c, false, x, stream());
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < n; ++i) wrong += std::isnan(y[i]) != (i >= pos);
          EXPECT_EQ(wrong, 0u) << "n=" << n << " NaN at " << pos;
        }
    }
  });
}

TEST_P(ScanGpuVariant, RunsCanBeCapturedInAGraph) {
  // A run only enqueues work: capture it (global mode forbids unsafe calls),
  // then replay with fresh garbage in the workspace and the output each time.
  using tessera::Accum;
  using tessera::Dtype;
  using tessera::Op;
  const ScanCombo c = GetParam().combo;
  const bool float_sum = c.dtype == Dtype::f32 && c.op == Op::sum;
  const bool listed = (float_sum && (c.accum == Accum::native || c.accum == Accum::dfloat)) ||
                      (c.dtype == Dtype::i64 && c.op == Op::sum) || (c.dtype == Dtype::u32 && c.op == Op::max);
  if (!listed) GTEST_SKIP() << "captured for float sums (native, dfloat), int64 sums and uint32 max";
  constexpr std::size_t n = 65537;
  with_scan_type(c.dtype, [&]<class T>() {
    const auto x = scan_input<T>(n, Distribution::uniform, "graph");
    const auto ref = scan_reference(x.data(), n, c.op, false);
    // One ordinary run first: loads the kernels and fills per-device caches.
    const auto first = run_scan_gpu<T>(variant(), c, false, x, stream());
    EXPECT_TRUE(check_scan(first.data(), ref, n, c, false));
    const auto spec = scan_spec(c, false, n);
    tessera::DeviceBuffer<T> d(n), out(n);
    d.upload(x.data(), n);
    tessera::DeviceBytes ws(variant().workspace_bytes(spec));
    device_sync();
    const CapturedGraph graph(stream(), [&] {
      variant().run(tessera::scan_impl::ScanCall{spec, d.data(), out.data(), ws.data(), stream()});
    });
    ASSERT_TRUE(graph.ok());
    for (int replay = 0; replay < 3; ++replay) {
      ws.fill_bytes(0x11 * (replay + 1), stream());
      out.fill_bytes(0xFF, stream());
      ASSERT_EQ(graph.launch(stream()), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
      std::vector<T> got(n);
      out.download(got.data(), n);
      EXPECT_TRUE(check_scan(got.data(), ref, n, c, false)) << "replay " << replay;
    }
  });
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ScanGpuVariant);

}  // namespace tessera_test
