// Block-level scans built on warp_scan.cuh: each warp scans in registers,
// the warp totals go through shared memory, and every warp then scans the
// (at most 32) warp totals itself, so a block scan costs one barrier.
//
// Same scan-functor contract as warp_scan.cuh (identity(), combine(left,
// right), order kept: non-commutative operators are fine). THREADS is the
// block size, a multiple of 32 up to 1024, and every thread of the block
// calls. `warp_totals` is THREADS / 32 states of shared memory, written before
// the function's barrier and read after it: the caller must pass a
// __syncthreads() before writing it again (the next block-wide step usually
// has one).
//
// Self-contained (relative includes) for include/tessera/scan.cuh.
#pragma once

#include "tessera/blocks/warp_scan.cuh"

namespace tessera::gpu {

template <int THREADS>
constexpr bool valid_scan_block = THREADS >= 32 && THREADS <= 1024 && THREADS % 32 == 0;

// The barrier of a block scan: the whole block by default; warp-specialised
// kernels, whose other warps never join, pass a named barrier over the
// scanning warps (the first THREADS threads of the block).
struct BlockBarrier {
  __device__ __forceinline__ void operator()() const { __syncthreads(); }
};
template <int ID, int THREADS>
struct NamedBarrier {
  static_assert(ID > 0 && ID < 16, "barrier 0 is __syncthreads'");
  __device__ __forceinline__ void operator()() const {
    asm volatile("bar.sync %0, %1;\n" ::"n"(ID), "n"(THREADS) : "memory");
  }
};

// After a barrier that published warp_totals[0 .. THREADS/32): the
// combination of the warps before the caller's warp (identity for warp 0;
// `first` tells the caller so, to skip a combine with the identity) and the
// block's total, both in every lane.
template <int THREADS, class F>
__device__ __forceinline__ typename F::acc_t warp_prefix_from_totals(const typename F::acc_t* warp_totals, const F& f,
                                                                      typename F::acc_t& block_total) {
  static_assert(valid_scan_block<THREADS>, "THREADS: whole warps, at most 1024");
  constexpr int WARPS = THREADS / 32;
  const unsigned lane = lane_index();
  const int warp = static_cast<int>(threadIdx.x / 32);
  typename F::acc_t t = lane < WARPS ? warp_totals[lane] : f.identity();
  t = warp_inclusive_scan_first<WARPS>(t, f);  // only lanes < WARPS are read below
  block_total = shfl_idx_any(t, WARPS - 1);
  const typename F::acc_t before = shfl_idx_any(t, warp > 0 ? warp - 1 : 0);
  return warp > 0 ? before : f.identity();
}

// Exclusive scan of one state per thread across the block. Returns the
// thread's exclusive prefix (the identity for thread 0); `block_total` gets
// the combination of all THREADS states, in every thread. One barrier
// (`barrier`).
template <int THREADS, class F, class Barrier = BlockBarrier>
__device__ __forceinline__ typename F::acc_t block_exclusive_scan(typename F::acc_t v, const F& f,
                                                                   typename F::acc_t* warp_totals,
                                                                   typename F::acc_t& block_total,
                                                                   Barrier barrier = {}) {
  using acc_t = typename F::acc_t;
  const unsigned lane = lane_index();
  const unsigned warp = threadIdx.x / 32;
  const acc_t inclusive = warp_inclusive_scan(v, f);
  if constexpr (THREADS == 32) {
    // One warp: its total is lane 31's inclusive value (what the warp-totals
    // scan below would return, bitwise); the barrier stays, callers may
    // order their own shared-memory use by it.
    block_total = shfl_idx_any(inclusive, 31);
    barrier();
    return warp_exclusive_from_inclusive(inclusive, f);
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  barrier();
  const acc_t warp_prefix = warp_prefix_from_totals<THREADS>(warp_totals, f, block_total);
  const acc_t lane_prefix = warp_exclusive_from_inclusive(inclusive, f);
  if (warp == 0) return lane_prefix;
  return lane == 0 ? warp_prefix : f.combine(warp_prefix, lane_prefix);
}

// Inclusive version: the thread's own state included.
template <int THREADS, class F>
__device__ __forceinline__ typename F::acc_t block_inclusive_scan(typename F::acc_t v, const F& f,
                                                                   typename F::acc_t* warp_totals,
                                                                   typename F::acc_t& block_total) {
  const typename F::acc_t before = block_exclusive_scan<THREADS>(v, f, warp_totals, block_total);
  return threadIdx.x == 0 ? v : f.combine(before, v);
}

}  // namespace tessera::gpu
