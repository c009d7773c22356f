// Device helpers shared by the moving_average CUDA rungs: one sample under
// the edge rule, and the staging of a run of samples (a tile plus its halo)
// into shared memory with 16-byte loads where the input allows them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "families/moving_average/contract.hpp"

namespace tessera::moving_average_impl::window {

// The edge rule as kernels take it (a plain flag: no host enum in device
// code). T: float or double.
template <class T>
struct Samples {
  const T* __restrict__ in;
  std::size_t n;
  bool clamp;  // Edge::clamp; otherwise Edge::zero
};

template <class T>
inline Samples<T> samples_of(const MovingAverageCall& call) {
  return {static_cast<const T*>(call.in), call.spec.n, call.spec.edge == Edge::clamp};
}

// Sample g, any integer (negative or past n-1 read the edge rule).
template <class T>
__device__ __forceinline__ T load_sample(const Samples<T>& s, std::int64_t g) {
  if (g >= 0 && static_cast<std::size_t>(g) < s.n) return s.in[g];
  if (!s.clamp) return T(0);
  return g < 0 ? s.in[0] : s.in[s.n - 1];
}

// floor(g / 4) * 4 for a signed g: the 16-byte (float) or 32-byte (double)
// boundary at or below sample g of an aligned input.
__host__ __device__ __forceinline__ std::int64_t floor4(std::int64_t g) {
  return g >= 0 ? g & ~std::int64_t(3) : -((-g + 3) & ~std::int64_t(3));
}

// Four consecutive samples, moved as one float4 or two double2.
template <class T>
struct Four {
  T v[4];
};

// Four samples from g (a multiple of 4): 16-byte loads when they lie inside
// [0, n) of a 16-byte aligned input, else sample by sample (the edges, an
// unaligned input).
template <class T>
__device__ __forceinline__ Four<T> load_four(const Samples<T>& s, std::int64_t g, bool vec) {
  if (vec && g >= 0 && static_cast<std::size_t>(g) + 4 <= s.n) {
    if constexpr (sizeof(T) == 4) {
      const float4 a = __ldg(reinterpret_cast<const float4*>(s.in + g));
      return {{a.x, a.y, a.z, a.w}};
    } else {
      const double2 a = __ldg(reinterpret_cast<const double2*>(s.in + g));
      const double2 b = __ldg(reinterpret_cast<const double2*>(s.in + g) + 1);
      return {{a.x, a.y, b.x, b.y}};
    }
  }
  return {{load_sample(s, g), load_sample(s, g + 1), load_sample(s, g + 2), load_sample(s, g + 3)}};
}

// Four samples at p (16-byte aligned; shared or global memory).
template <class T>
__device__ __forceinline__ void store_four(T* p, const Four<T>& f) {
  if constexpr (sizeof(T) == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(f.v[0], f.v[1], f.v[2], f.v[3]);
  } else {
    reinterpret_cast<double2*>(p)[0] = make_double2(f.v[0], f.v[1]);
    reinterpret_cast<double2*>(p)[1] = make_double2(f.v[2], f.v[3]);
  }
}
template <class T>
__device__ __forceinline__ Four<T> read_four(const T* p) {
  if constexpr (sizeof(T) == 4) {
    const float4 a = *reinterpret_cast<const float4*>(p);
    return {{a.x, a.y, a.z, a.w}};
  } else {
    const double2 a = reinterpret_cast<const double2*>(p)[0], b = reinterpret_cast<const double2*>(p)[1];
    return {{a.x, a.y, b.x, b.y}};
  }
}

// Stages samples [first, first + count) into ys[0, count): first a multiple
// of 4, count a multiple of 4, ys 16-byte aligned. Every thread of the block
// calls (THREADS threads); the caller's barrier publishes ys. Loads go in
// batches of BATCH quads per thread, all issued before the first shared
// store: a loop of load-then-store would keep one 16-byte load in flight
// per thread, too few to cover DRAM latency when shared memory limits the
// block to 3-4 per SM (the tiled running sum at w = 1001).
template <int THREADS, class T, int BATCH = 4>
__device__ __forceinline__ void stage_samples(const Samples<T>& s, std::int64_t first, int count, T* ys) {
  const bool vec = (reinterpret_cast<std::uintptr_t>(s.in) & 15) == 0;
  const int quads = count / 4;
  for (int q0 = static_cast<int>(threadIdx.x); q0 < quads; q0 += THREADS * BATCH) {
    Four<T> v[BATCH];
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      const int q = q0 + b * THREADS;
      if (q < quads) v[b] = load_four(s, first + 4 * static_cast<std::int64_t>(q), vec);
    }
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      const int q = q0 + b * THREADS;
      if (q < quads) store_four(ys + 4 * q, v[b]);
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
