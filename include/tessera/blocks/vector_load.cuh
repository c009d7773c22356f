// Global-memory loads shared by the reduce rungs.
//
// 1. Per-thread strided tiles (algorithm cascading, seed 000 "Algorithm
//    Cascading / unroll N blocks"): a block covers ITEMS * blockDim
//    consecutive elements, thread t reads base + t + k * blockDim for
//    k < ITEMS. Every warp access is coalesced, and the ITEMS loads of a full
//    tile are all issued before the first one is used (ITEMS loads in flight
//    per thread).
// 2. 16-byte vector loads (float4, double2, int4, longlong2 by element type),
//    with the alignment peel: callers pass arbitrary element pointers (d_x + 1
//    is a valid input), so a range splits into a scalar head up to the first
//    16-byte boundary, a body of whole 16-byte vectors, and a scalar tail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/reducers.hpp"

namespace tessera::gpu {

// ---- 1. strided tiles ----------------------------------------------------

// Folds the tile [base, base + ITEMS * stride) of `in` into one accumulator:
// thread `tid` reads base + tid + k * stride. A full tile issues all its loads
// unguarded first; the last, partial tile checks every index against n.
// Works for any reducer, including the acc_t partials of later passes.
template <class R, int ITEMS>
__device__ __forceinline__ typename R::acc_t load_tile_strided(const typename R::in_t* __restrict__ in,
                                                               std::size_t n, std::size_t base, unsigned tid,
                                                               unsigned stride) {
  using in_t = typename R::in_t;
  typename R::acc_t acc = R::identity();
  const std::size_t first = base + tid;
  if (base + static_cast<std::size_t>(ITEMS) * stride <= n) {
    in_t x[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) x[k] = in[first + static_cast<std::size_t>(k) * stride];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) R::add(acc, x[k]);
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const std::size_t i = first + static_cast<std::size_t>(k) * stride;
      if (i < n) R::add(acc, in[i]);
    }
  }
  return acc;
}

// ---- 2. 16-byte vectors --------------------------------------------------

template <class T> struct Vec16;
template <> struct Vec16<float> { using type = float4; static constexpr int N = 4; };
template <> struct Vec16<double> { using type = double2; static constexpr int N = 2; };
template <> struct Vec16<std::int32_t> { using type = int4; static constexpr int N = 4; };
template <> struct Vec16<std::int64_t> { using type = longlong2; static constexpr int N = 2; };

template <class T>
constexpr bool has_vec16 = requires { typename Vec16<T>::type; };

// One 16-byte load of N = 16 / sizeof(T) elements; p must be 16-byte aligned.
template <class T>
__device__ __forceinline__ void load_vec16(const T* __restrict__ p, T (&out)[Vec16<T>::N]) {
  using V = typename Vec16<T>::type;
  const V v = *reinterpret_cast<const V*>(p);
  if constexpr (Vec16<T>::N == 4) {
    out[0] = static_cast<T>(v.x);
    out[1] = static_cast<T>(v.y);
    out[2] = static_cast<T>(v.z);
    out[3] = static_cast<T>(v.w);
  } else {
    out[0] = static_cast<T>(v.x);
    out[1] = static_cast<T>(v.y);
  }
}

// How a range of n elements starting at p splits for 16-byte vector loads:
// elements [0, head) scalar, [head, head + vectors * N) as vectors, the rest
// (fewer than N) scalar. The body starts on an ALIGN-byte boundary (16 at
// least; 128 puts every warp's 512-byte vector access on whole cache lines),
// so the head has fewer than ALIGN / sizeof(T) elements. A pointer not even
// aligned to its element size (impossible for a valid T*, but cheap to guard)
// is read entirely scalar.
struct VecSplit {
  std::size_t head;     // scalar elements before the aligned body
  std::size_t vectors;  // whole 16-byte vectors after the head
  std::size_t tail;     // first element of the scalar tail
};

template <std::size_t ALIGN = 16, class T>
__host__ __device__ __forceinline__ VecSplit split_for_vec16(const T* p, std::size_t n) {
  static_assert(ALIGN >= 16 && (ALIGN & (ALIGN - 1)) == 0, "ALIGN: power of two >= 16");
  constexpr std::size_t N = 16 / sizeof(T);
  const auto misalign = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) & (ALIGN - 1));
  if (misalign % sizeof(T) != 0) return {n, 0, n};
  std::size_t head = ((ALIGN - misalign) & (ALIGN - 1)) / sizeof(T);
  if (head > n) head = n;
  const std::size_t vectors = (n - head) / N;
  return {head, vectors, head + vectors * N};
}

}  // namespace tessera::gpu
