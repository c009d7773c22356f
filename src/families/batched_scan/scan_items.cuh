// The arithmetic of tessera's batched_scan rungs (fused one-pass, long-row
// look-back, short-row segments), shared so that they differ only in how the
// threads of a row are combined.
//
// A thread holds N consecutive samples of a row in registers (blocked
// arrangement); items j in [jlo, jhi) are samples of the row, the others are
// padding (before the row's first sample or after its last) and are skipped.
// With R a reducer of tessera/blocks/reducers.hpp:
//
//   forward_items     v[j] = local inclusive (or exclusive) prefix of x;
//                     returns the thread's total
//   backward_items    v[j] = local suffix of x; returns the thread's total
//   backward_of_forward
//                     f[j] = p (+) v[j] is the row's forward result (p: the
//                     sum of everything before the thread); v[j] becomes the
//                     local suffix of f, in the accumulator: the forward
//                     result is never rounded to float
//   finish_items      y[j] = finish(c (+) v[j]): one rounding per output
//
// BlockScan<R, BLOCK>: exclusive prefix / suffix of one value per thread
// across the block (warp shuffles, one barrier, BLOCK / 32 partials in shared
// memory), plus the block total. The prefix is the shared
// gpu::block_exclusive_scan; the suffix (which the shared blocks do not
// offer) mirrors it with __shfl_down_sync. Every loop over j is unrolled: the
// register arrays are indexed by constants only (no local memory).
#pragma once

#include "tessera/blocks/reducers.hpp"
#include "tessera/blocks/scan_ops.hpp"
#include "tessera/blocks/block_scan.cuh"
#include "tessera/blocks/warp_scan.cuh"
#include "tessera/batched_scan.hpp"

namespace tessera::batched_scan_impl::gpu_detail {

constexpr unsigned LANES = 32;  // threads of a warp

// __shfl_down_sync of any state (word by word, as the shared shfl_up_any).
template <class T>
__device__ __forceinline__ T shfl_down_any(const T& v, unsigned delta) {
  return gpu::scan_detail::shuffle_words(v, [delta](unsigned w) { return __shfl_down_sync(0xffffffffu, w, delta); });
}

// warp_inclusive_suffix_scan over the first N lanes only (a block's warp
// totals): lane l < N gets v_l (+) ... (+) v_(N-1) in log2(N) steps; lanes
// >= N keep their value. Against the 32-lane scan over identity-padded lanes
// this only skips combines with the identity (x (+) 0 == x, but for a
// -0 that becomes +0).
template <class R, int N>
__device__ __forceinline__ typename R::acc_t warp_inclusive_suffix_scan_first(typename R::acc_t v) {
  const unsigned lane = threadIdx.x % LANES;
#pragma unroll
  for (unsigned d = 1; d < static_cast<unsigned>(N); d <<= 1) {
    const typename R::acc_t t = shfl_down_any(v, d);
    if (lane + d < static_cast<unsigned>(N)) v = R::combine(v, t);
  }
  return v;
}

// Lane l gets v_l (+) ... (+) v_31 (Kogge-Stone downwards; earlier lanes
// always on the left).
template <class R>
__device__ __forceinline__ typename R::acc_t warp_inclusive_suffix_scan(typename R::acc_t v) {
  return warp_inclusive_suffix_scan_first<R, LANES>(v);
}

// FAST (forward_items, backward_items, backward_of_forward): a thread whose
// items are all valid (every thread of a tile but its first and last) runs
// the loop with constant bounds: no per-item test and branch. Same
// arithmetic in the same order: bitwise the same results.
template <class R, int N, bool FAST = false>
__device__ __forceinline__ typename R::acc_t forward_items(const float (&x)[N], int jlo, int jhi, bool exclusive,
                                                           typename R::acc_t (&v)[N]) {
  if constexpr (FAST)
    if (jlo == 0 && jhi == N) return forward_items<R, N, false>(x, 0, N, exclusive, v);
  typename R::acc_t run = R::identity();
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const typename R::acc_t before = run;
    if (j >= jlo && j < jhi) R::add(run, x[j]);
    v[j] = exclusive ? before : run;
  }
  return run;
}

// As forward_items, and q = the sum of the valid v[j] (the tile's share of
// the forward result's total, without the carry: the long-row path's first
// forward_backward pass).
template <class R, int N>
__device__ __forceinline__ typename R::acc_t forward_items_with_sum(const float (&x)[N], int jlo, int jhi,
                                                                    bool exclusive, typename R::acc_t& q) {
  typename R::acc_t run = R::identity();
  q = R::identity();
#pragma unroll
  for (int j = 0; j < N; ++j) {
    if (j >= jlo && j < jhi) {
      const typename R::acc_t before = run;
      R::add(run, x[j]);
      q = R::combine(q, exclusive ? before : run);
    }
  }
  return run;
}

template <class R, int N, bool FAST = false>
__device__ __forceinline__ typename R::acc_t backward_items(const float (&x)[N], int jlo, int jhi, bool exclusive,
                                                            typename R::acc_t (&v)[N]) {
  if constexpr (FAST)
    if (jlo == 0 && jhi == N) return backward_items<R, N, false>(x, 0, N, exclusive, v);
  typename R::acc_t run = R::identity();
#pragma unroll
  for (int j = N - 1; j >= 0; --j) {
    const typename R::acc_t before = run;
    if (j >= jlo && j < jhi) R::add(run, x[j]);
    v[j] = exclusive ? before : run;
  }
  return run;
}

template <class R, int N, bool FAST = false>
__device__ __forceinline__ typename R::acc_t backward_of_forward(typename R::acc_t (&v)[N], typename R::acc_t p,
                                                                 int jlo, int jhi, bool exclusive) {
  if constexpr (FAST)
    if (jlo == 0 && jhi == N) return backward_of_forward<R, N, false>(v, p, 0, N, exclusive);
  typename R::acc_t run = R::identity();
#pragma unroll
  for (int j = N - 1; j >= 0; --j) {
    if (j >= jlo && j < jhi) {
      const typename R::acc_t f = R::combine(p, v[j]);
      const typename R::acc_t before = run;
      run = R::combine(f, run);
      v[j] = exclusive ? before : run;
    }
  }
  return run;
}

// Padding items get finish(c (+) garbage): never stored.
template <class R, int N>
__device__ __forceinline__ void finish_items(const typename R::acc_t (&v)[N], typename R::acc_t c, float (&y)[N]) {
#pragma unroll
  for (int j = 0; j < N; ++j) y[j] = R::finish(R::combine(c, v[j]));
}

// Number of valid items of a thread in [jlo, jhi) clamped to [0, N).
__device__ __forceinline__ int clamp_items(long long v, int n) {
  return v < 0 ? 0 : (v > n ? n : static_cast<int>(v));
}

// Barrier: gpu::BlockBarrier, or a named barrier over the first BLOCK
// threads (the consumer warps of a warp-specialised kernel).
template <class R, int BLOCK, class Barrier = gpu::BlockBarrier>
struct BlockScan {
  using acc_t = typename R::acc_t;
  static constexpr int WARPS = BLOCK / static_cast<int>(LANES);
  static_assert(gpu::valid_scan_block<BLOCK>, "BLOCK: whole warps, at most 1024 threads");

  // The sum of the values of the threads before this one; `total` (every
  // thread) is the block's sum. `scratch` holds WARPS accumulators; the
  // caller must __syncthreads() before `scratch` is written again.
  static __device__ __forceinline__ acc_t exclusive(acc_t v, acc_t* scratch, acc_t& total) {
    return gpu::block_exclusive_scan<BLOCK>(v, StatesOf<R>{}, scratch, total, Barrier{});
  }

  // The sum of the values of the threads after this one; `total` as above.
  // TREE: the warp totals are combined by a warp suffix scan (log2(WARPS)
  // dependent steps) rather than a serial walk (WARPS dependent combines).
  template <bool TREE = (WARPS > 16)>
  static __device__ __forceinline__ acc_t exclusive_suffix(acc_t v, acc_t* scratch, acc_t& total) {
    const unsigned lane = threadIdx.x % LANES, warp = threadIdx.x / LANES;
    const acc_t incl = warp_inclusive_suffix_scan<R>(v);
    constexpr bool ONE_WARP_TREE = TREE && WARPS == 1;  // the total is lane 0's: no scratch
    if (!ONE_WARP_TREE && lane == 0) scratch[warp] = incl;
    Barrier{}();  // kept with one warp too: callers may order their shared memory by it
    acc_t after = R::identity();
    if constexpr (ONE_WARP_TREE) {
      total = gpu::shfl_idx_any(incl, 0);
    } else if constexpr (TREE) {
      // Many warps (the pipelined 896-thread tile): a warp suffix scan of the
      // warp totals, log2(WARPS) dependent steps, instead of WARPS serial
      // combines per thread (28 double-float combines per thread per scan
      // would cost as much as the samples' own arithmetic).
      const acc_t t = lane < static_cast<unsigned>(WARPS) ? scratch[lane] : R::identity();
      const acc_t suf = warp_inclusive_suffix_scan_first<R, WARPS>(t);  // lane l < WARPS: warps l..
      total = gpu::shfl_idx_any(suf, 0);
      const acc_t later = gpu::shfl_idx_any(suf, static_cast<int>((warp + 1) % LANES));
      if (warp + 1 < static_cast<unsigned>(WARPS)) after = later;
    } else {
      // Few warps (the 384-thread tile): the serial walk, kept so that the
      // measured rungs' results stay bitwise as they were.
      acc_t tot = R::identity();
#pragma unroll
      for (int w = WARPS - 1; w >= 0; --w) {
        const acc_t s = scratch[w];
        if (w > static_cast<int>(warp)) after = R::combine(s, after);
        tot = R::combine(s, tot);
      }
      total = tot;
    }
    const acc_t next = shfl_down_any(incl, 1);
    return lane == LANES - 1 ? after : R::combine(next, after);
  }
};

// One tile of a row (BLOCK threads x N items): the scan of `x` into `y` in
// `dir`, with the sums of everything before the tile (forward) and after it
// (backward) supplied by the callers' carry functors, called by every thread
// with the tile's own total once it is known:
//   fwd_carry(total) -> sum of the forward pass's values before the tile
//   bwd_carry(total) -> sum of the backward pass's values after the tile
// (the fused rung returns the identity; the long-row rungs return carries
// known before the tile). A functor may use barriers: it is called uniformly. On
// return every thread is done with `scratch`, but not necessarily with the
// shared memory `x` was read from: __syncthreads() before overwriting it.
// FAST: the per-thread loops take the constant-bounds path for full threads
// (see forward_items).
// `scratch2` (optional, WARPS accumulators): the second block scan of
// forward_backward uses it, saving the barrier that otherwise separates the
// two scans' uses of `scratch`.
template <class R, int N, int BLOCK, bool FAST = false, class Barrier = gpu::BlockBarrier, class FwdCarry,
          class BwdCarry>
__device__ __forceinline__ void scan_tile(const float (&x)[N], float (&y)[N], int jlo, int jhi, ScanDirection dir,
                                          bool exclusive, typename R::acc_t* scratch, FwdCarry&& fwd_carry,
                                          BwdCarry&& bwd_carry, typename R::acc_t* scratch2 = nullptr) {
  using acc_t = typename R::acc_t;
  using Scan = BlockScan<R, BLOCK, Barrier>;
  acc_t v[N];
  acc_t total;
  if (dir == ScanDirection::backward) {
    const acc_t tot = backward_items<R, N, FAST>(x, jlo, jhi, exclusive, v);
    const acc_t after = Scan::exclusive_suffix(tot, scratch, total);
    finish_items<R, N>(v, R::combine(after, bwd_carry(total)), y);
    return;
  }
  const acc_t tot = forward_items<R, N, FAST>(x, jlo, jhi, exclusive, v);
  const acc_t before = Scan::exclusive(tot, scratch, total);
  const acc_t p = R::combine(fwd_carry(total), before);
  if (dir == ScanDirection::forward) {
    finish_items<R, N>(v, p, y);
    return;
  }
  if (scratch2 == nullptr) {
    Barrier{}();  // every thread has read `scratch` before the second scan writes it
    scratch2 = scratch;
  }
  const acc_t g = backward_of_forward<R, N, FAST>(v, p, jlo, jhi, exclusive);
  const acc_t after = Scan::exclusive_suffix(g, scratch2, total);
  finish_items<R, N>(v, R::combine(after, bwd_carry(total)), y);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
