// Warp-level reduction of a Reducer's accumulator with register shuffles.
//
// Two shapes (seed 000 "Warp Unroll / warp shuffle"):
//   warp_reduce<R>(acc)      tree with __shfl_down_sync: lane 0 ends with the
//                            warp's total (other lanes hold partial garbage);
//   warp_reduce_xor<R>(acc)  butterfly with __shfl_xor_sync: every lane ends
//                            with a total (lane 0's is the one callers use, so
//                            a non-commutative rounding in combine cannot make
//                            lanes disagree about the result that is kept).
// Both combine in a fixed order, so they are deterministic.
//
// Accumulators may be structs (KahanState, DFloatState): they are shuffled
// field by field. 64-bit integers go through the unsigned long long / long
// long overloads (std::uint64_t is `unsigned long` on LP64 Linux).
// Every lane of the warp must call these (full mask): the kernels that use
// them always run whole warps, lanes without data holding R::identity().
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/blocks/reducers.hpp"

namespace tessera::gpu {

constexpr unsigned FULL_WARP_MASK = 0xffffffffu;
constexpr int WARP_SIZE = 32;

// ---- shuffles of every accumulator type --------------------------------

__device__ __forceinline__ float shfl_down(float v, unsigned d) { return __shfl_down_sync(FULL_WARP_MASK, v, d); }
__device__ __forceinline__ double shfl_down(double v, unsigned d) { return __shfl_down_sync(FULL_WARP_MASK, v, d); }
__device__ __forceinline__ std::int32_t shfl_down(std::int32_t v, unsigned d) {
  return __shfl_down_sync(FULL_WARP_MASK, v, d);
}
__device__ __forceinline__ std::int64_t shfl_down(std::int64_t v, unsigned d) {
  return static_cast<std::int64_t>(__shfl_down_sync(FULL_WARP_MASK, static_cast<long long>(v), d));
}
__device__ __forceinline__ std::uint64_t shfl_down(std::uint64_t v, unsigned d) {
  return static_cast<std::uint64_t>(__shfl_down_sync(FULL_WARP_MASK, static_cast<unsigned long long>(v), d));
}
__device__ __forceinline__ KahanState shfl_down(KahanState v, unsigned d) {
  return {__shfl_down_sync(FULL_WARP_MASK, v.s, d), __shfl_down_sync(FULL_WARP_MASK, v.c, d)};
}
__device__ __forceinline__ DFloatState shfl_down(DFloatState v, unsigned d) {
  return {__shfl_down_sync(FULL_WARP_MASK, v.hi, d), __shfl_down_sync(FULL_WARP_MASK, v.lo, d)};
}

__device__ __forceinline__ float shfl_xor(float v, unsigned m) { return __shfl_xor_sync(FULL_WARP_MASK, v, m); }
__device__ __forceinline__ double shfl_xor(double v, unsigned m) { return __shfl_xor_sync(FULL_WARP_MASK, v, m); }
__device__ __forceinline__ std::int32_t shfl_xor(std::int32_t v, unsigned m) {
  return __shfl_xor_sync(FULL_WARP_MASK, v, m);
}
__device__ __forceinline__ std::int64_t shfl_xor(std::int64_t v, unsigned m) {
  return static_cast<std::int64_t>(__shfl_xor_sync(FULL_WARP_MASK, static_cast<long long>(v), m));
}
__device__ __forceinline__ std::uint64_t shfl_xor(std::uint64_t v, unsigned m) {
  return static_cast<std::uint64_t>(__shfl_xor_sync(FULL_WARP_MASK, static_cast<unsigned long long>(v), m));
}
__device__ __forceinline__ KahanState shfl_xor(KahanState v, unsigned m) {
  return {__shfl_xor_sync(FULL_WARP_MASK, v.s, m), __shfl_xor_sync(FULL_WARP_MASK, v.c, m)};
}
__device__ __forceinline__ DFloatState shfl_xor(DFloatState v, unsigned m) {
  return {__shfl_xor_sync(FULL_WARP_MASK, v.hi, m), __shfl_xor_sync(FULL_WARP_MASK, v.lo, m)};
}

// ---- warp reductions ----------------------------------------------------

// Tree: offsets 16, 8, 4, 2, 1. The total is valid in lane 0.
template <class R>
__device__ __forceinline__ typename R::acc_t warp_reduce(typename R::acc_t acc) {
#pragma unroll
  for (unsigned offset = WARP_SIZE / 2; offset > 0; offset >>= 1) acc = R::combine(acc, shfl_down(acc, offset));
  return acc;
}

// Butterfly: masks 16, 8, 4, 2, 1. Every lane holds a total; use lane 0's.
template <class R>
__device__ __forceinline__ typename R::acc_t warp_reduce_xor(typename R::acc_t acc) {
#pragma unroll
  for (unsigned mask = WARP_SIZE / 2; mask > 0; mask >>= 1) acc = R::combine(acc, shfl_xor(acc, mask));
  return acc;
}

// Selects one of the two shapes at compile time (block_reduce.cuh).
enum class WarpShuffle { down, xor_butterfly };

template <class R, WarpShuffle S>
__device__ __forceinline__ typename R::acc_t warp_reduce_with(typename R::acc_t acc) {
  if constexpr (S == WarpShuffle::down) return warp_reduce<R>(acc);
  else return warp_reduce_xor<R>(acc);
}

}  // namespace tessera::gpu
