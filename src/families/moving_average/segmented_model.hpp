// A CPU model of step 7 (07_running_sum_segmented.cu), operation for
// operation: the same tiles, staging span, segments, lane adds, Kogge-Stone
// warp scans (float for the local prefixes, double for the segment totals)
// and output expression (segmented_prefix.hpp), so it rounds exactly as the
// kernel does. The tests check its error bound on any input here, without a
// GPU, and compare the kernel with it bit for bit on one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "families/moving_average/cpu_rungs.hpp"
#include "families/moving_average/segmented_prefix.hpp"

namespace tessera::moving_average_impl::segmented {

inline constexpr int MODEL_TILE = 4096;  // the kernel's TILE

// Lane l ends with v[0] + ... + v[l], combined as warp_inclusive_scan does
// (step d: lane l >= d adds lane l - d's value from before the step).
template <class T>
void kogge_stone_32(T (&v)[32]) {
  for (int d = 1; d < 32; d <<= 1) {
    T before[32];
    for (int l = 0; l < 32; ++l) before[l] = v[l];
    for (int l = d; l < 32; ++l) v[l] = before[l - d] + before[l];
  }
}

// out[i] for every i < n, as the kernel computes it. w may exceed n (the
// kernel's arithmetic allows it; the public API refuses it).
inline std::vector<float> model_outputs(const float* x, std::size_t n, std::size_t w_, Edge edge, float c) {
  std::vector<float> out(n);
  const int w = static_cast<int>(w_);
  const std::int64_t half = w / 2;
  for (std::int64_t t0 = 0; t0 < static_cast<std::int64_t>(n); t0 += MODEL_TILE) {
    // window::tile_span: from the 16-byte boundary at or below t0 - half.
    const std::int64_t lo = t0 - half;
    const std::int64_t first = lo >= 0 ? lo & ~std::int64_t(3) : -((-lo + 3) & ~std::int64_t(3));
    const int offset = static_cast<int>(lo - first);
    const int count = (offset + MODEL_TILE + w - 1 + 3) / 4 * 4;
    const int segs = count / SEGMENT + 1;
    std::vector<float> L(static_cast<std::size_t>(segs) * SEGMENT, 0.0f);
    for (int m = 0; m < count; ++m) L[static_cast<std::size_t>(m)] = cpu::sample(x, n, edge, first + m);
    std::vector<float> T(static_cast<std::size_t>(segs));
    for (int s = 0; s < segs; ++s) {
      float* ys = L.data() + static_cast<std::size_t>(s) * SEGMENT;
      LanePrefix lp[32];
      float inclusive[32];
      for (int l = 0; l < 32; ++l) {
        lp[l] = lane_prefix(ys[4 * l], ys[4 * l + 1], ys[4 * l + 2], ys[4 * l + 3]);
        inclusive[l] = lp[l].total;
      }
      kogge_stone_32(inclusive);
      for (int l = 0; l < 32; ++l) {
        const float before = l == 0 ? 0.0f : inclusive[l - 1];
        for (int e = 0; e < LANE_ITEMS; ++e) ys[4 * l + e] = before + lp[l].p[e];
      }
      T[static_cast<std::size_t>(s)] = inclusive[31];
    }
    // A: 32 segments at a time, each round's Kogge-Stone added to the carry.
    std::vector<double> A(static_cast<std::size_t>(segs) + 1, 0.0);
    double carry = 0.0;
    for (int s0 = 0; s0 < segs; s0 += 32) {
      double v[32];
      for (int l = 0; l < 32; ++l) v[l] = s0 + l < segs ? static_cast<double>(T[static_cast<std::size_t>(s0 + l)]) : 0.0;
      kogge_stone_32(v);
      for (int l = 0; l < 32 && s0 + l < segs; ++l) A[static_cast<std::size_t>(s0 + l) + 1] = carry + v[l];
      carry += v[31];
    }
    const int q = w >> SEGMENT_SHIFT;
    std::vector<float> D(2 * static_cast<std::size_t>(segs));
    for (int e = 0; e < 2 * segs; ++e) {
      const int s = e >> 1;
      const int end = s + q + (e & 1) < segs ? s + q + (e & 1) : segs;
      D[static_cast<std::size_t>(e)] =
          static_cast<float>(A[static_cast<std::size_t>(end)] - A[static_cast<std::size_t>(s)]);
    }
    for (int k = 0; k < MODEL_TILE && t0 + k < static_cast<std::int64_t>(n); ++k) {
      const int a = offset + k, b = a + w;
      const int sa = a >> SEGMENT_SHIFT;
      const int d = (b >> SEGMENT_SHIFT) - sa - q;
      out[static_cast<std::size_t>(t0 + k)] =
          window_output(c, D[static_cast<std::size_t>(2 * sa + d)], L[static_cast<std::size_t>(b)],
                        L[static_cast<std::size_t>(a)]);
    }
  }
  return out;
}

}  // namespace tessera::moving_average_impl::segmented
