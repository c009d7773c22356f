// Warp-level scans of a Reducer's accumulator with register shuffles, in
// segments of `width` lanes (a power of two <= 32: the shuffles' own width
// argument keeps every exchange inside its segment, so several short rows can
// share a warp).
//
//   warp_inclusive_scan<R>(v, seg_lane, width)         lane i of a segment gets
//                                                      v_0 (+) ... (+) v_i
//   warp_inclusive_suffix_scan<R>(v, seg_lane, width)  lane i gets
//                                                      v_i (+) ... (+) v_last
//
// Kogge-Stone: log2(width) steps of shuffle + combine, earlier values always
// combined on the left, so the result is deterministic. Accumulators may be
// structs (Kahan, double-float), shuffled field by field. Every lane of the
// warp must call these with the same `width` (full mask); lanes without data
// pass R::identity().
#pragma once

#include "common/reducers.hpp"
#include "cuda/common/warp_reduce.cuh"

namespace tessera::gpu {

// ---- shuffles with a segment width -------------------------------------------

__device__ __forceinline__ float shfl_up(float v, unsigned d, int width) {
  return __shfl_up_sync(FULL_WARP_MASK, v, d, width);
}
__device__ __forceinline__ double shfl_up(double v, unsigned d, int width) {
  return __shfl_up_sync(FULL_WARP_MASK, v, d, width);
}
__device__ __forceinline__ KahanState shfl_up(KahanState v, unsigned d, int width) {
  return {__shfl_up_sync(FULL_WARP_MASK, v.s, d, width), __shfl_up_sync(FULL_WARP_MASK, v.c, d, width)};
}
__device__ __forceinline__ DFloatState shfl_up(DFloatState v, unsigned d, int width) {
  return {__shfl_up_sync(FULL_WARP_MASK, v.hi, d, width), __shfl_up_sync(FULL_WARP_MASK, v.lo, d, width)};
}

__device__ __forceinline__ float shfl_down(float v, unsigned d, int width) {
  return __shfl_down_sync(FULL_WARP_MASK, v, d, width);
}
__device__ __forceinline__ double shfl_down(double v, unsigned d, int width) {
  return __shfl_down_sync(FULL_WARP_MASK, v, d, width);
}
__device__ __forceinline__ KahanState shfl_down(KahanState v, unsigned d, int width) {
  return {__shfl_down_sync(FULL_WARP_MASK, v.s, d, width), __shfl_down_sync(FULL_WARP_MASK, v.c, d, width)};
}
__device__ __forceinline__ DFloatState shfl_down(DFloatState v, unsigned d, int width) {
  return {__shfl_down_sync(FULL_WARP_MASK, v.hi, d, width), __shfl_down_sync(FULL_WARP_MASK, v.lo, d, width)};
}

// ---- scans ----------------------------------------------------------------------

// `seg_lane` = lane % width.
template <class R>
__device__ __forceinline__ typename R::acc_t warp_inclusive_scan(typename R::acc_t v, unsigned seg_lane, int width) {
  for (int d = 1; d < width; d <<= 1) {
    const typename R::acc_t t = shfl_up(v, static_cast<unsigned>(d), width);
    if (seg_lane >= static_cast<unsigned>(d)) v = R::combine(t, v);
  }
  return v;
}

template <class R>
__device__ __forceinline__ typename R::acc_t warp_inclusive_suffix_scan(typename R::acc_t v, unsigned seg_lane,
                                                                        int width) {
  for (int d = 1; d < width; d <<= 1) {
    const typename R::acc_t t = shfl_down(v, static_cast<unsigned>(d), width);
    if (seg_lane + static_cast<unsigned>(d) < static_cast<unsigned>(width)) v = R::combine(v, t);
  }
  return v;
}

// Exclusive forms from the inclusive ones: the neighbour's inclusive value,
// the identity at the segment's first (prefix) or last (suffix) lane.
template <class R>
__device__ __forceinline__ typename R::acc_t warp_exclusive_from_inclusive(typename R::acc_t incl, unsigned seg_lane,
                                                                           int width) {
  const typename R::acc_t t = shfl_up(incl, 1u, width);
  return seg_lane == 0 ? R::identity() : t;
}

template <class R>
__device__ __forceinline__ typename R::acc_t warp_exclusive_suffix_from_inclusive(typename R::acc_t incl,
                                                                                  unsigned seg_lane, int width) {
  const typename R::acc_t t = shfl_down(incl, 1u, width);
  return seg_lane + 1 == static_cast<unsigned>(width) ? R::identity() : t;
}

}  // namespace tessera::gpu
