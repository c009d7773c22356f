// Device helpers shared by the moving_average CUDA rungs: one sample under
// the edge rule, and the staging of a run of samples (a tile plus its halo)
// into shared memory with 16-byte loads where the input allows them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "families/moving_average/contract.hpp"

namespace tessera::moving_average_impl::window {

// The edge rule as kernels take it (a plain flag: no host enum in device code).
struct Samples {
  const float* __restrict__ in;
  std::size_t n;
  bool clamp;  // Edge::clamp; otherwise Edge::zero
};

inline Samples samples_of(const MovingAverageCall& call) {
  return {static_cast<const float*>(call.in), call.spec.n, call.spec.edge == Edge::clamp};
}

// Sample g, any integer (negative or past n-1 read the edge rule).
__device__ __forceinline__ float load_sample(const Samples& s, std::int64_t g) {
  if (g >= 0 && static_cast<std::size_t>(g) < s.n) return s.in[g];
  if (!s.clamp) return 0.0f;
  return g < 0 ? s.in[0] : s.in[s.n - 1];
}

// floor(g / 4) * 4 for a signed g: the 16-byte boundary at or below sample g.
__host__ __device__ __forceinline__ std::int64_t floor4(std::int64_t g) { return g >= 0 ? g & ~std::int64_t(3) : -((-g + 3) & ~std::int64_t(3)); }

// Four samples from g (a multiple of 4): one float4 load when they lie
// inside [0, n) of a 16-byte aligned input, else sample by sample (the
// edges, an unaligned input).
__device__ __forceinline__ float4 load_four(const Samples& s, std::int64_t g, bool vec) {
  if (vec && g >= 0 && static_cast<std::size_t>(g) + 4 <= s.n) return __ldg(reinterpret_cast<const float4*>(s.in + g));
  return make_float4(load_sample(s, g), load_sample(s, g + 1), load_sample(s, g + 2), load_sample(s, g + 3));
}

// Stages samples [first, first + count) into ys[0, count): first a multiple
// of 4, count a multiple of 4, ys 16-byte aligned. Every thread of the block
// calls (THREADS threads); the caller's barrier publishes ys. Loads go in
// batches of BATCH float4 per thread, all issued before the first shared
// store: a loop of load-then-store would keep one 16-byte load in flight
// per thread, too few to cover DRAM latency when shared memory limits the
// block to 3-4 per SM (the tiled running sum at w = 1001).
template <int THREADS, int BATCH = 4>
__device__ __forceinline__ void stage_samples(const Samples& s, std::int64_t first, int count, float* ys) {
  const bool vec = (reinterpret_cast<std::uintptr_t>(s.in) & 15) == 0;
  const int vectors = count / 4;
  float4* ys4 = reinterpret_cast<float4*>(ys);
  for (int q0 = static_cast<int>(threadIdx.x); q0 < vectors; q0 += THREADS * BATCH) {
    float4 v[BATCH];
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      const int q = q0 + b * THREADS;
      if (q < vectors) v[b] = load_four(s, first + 4 * static_cast<std::int64_t>(q), vec);
    }
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      const int q = q0 + b * THREADS;
      if (q < vectors) ys4[q] = v[b];
    }
  }
}

// Samples a tile of `tile` outputs starting at output t0 stages: from the
// 16-byte boundary at or below t0 - half to past t0 + tile - 1 + half,
// rounded up to whole float4s. `offset` is where sample t0 - half lands.
struct TileSpan {
  std::int64_t first;
  int offset;
  int count;
};
__host__ __device__ __forceinline__ TileSpan tile_span(std::int64_t t0, int tile, int w) {
  const std::int64_t lo = t0 - w / 2;
  const std::int64_t first = floor4(lo);
  const int offset = static_cast<int>(lo - first);
  const int count = (offset + tile + w - 1 + 3) / 4 * 4;
  return {first, offset, count};
}

}  // namespace tessera::moving_average_impl::window
