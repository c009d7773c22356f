// scan_tile with each thread's serial accumulator chain cut into K
// independent chains (fused_pipelined_lazy_bulk, fused_fitted, the resident
// consumers' Kahan and double-float tiles; the lab's
// fused_pipelined_two_chains introduced it).
//
// scan_items.cuh runs a thread's N items as one dependent chain per pass:
// N x (the accumulator add's latency) per pass, about 28 x 28 cycles for a
// double-float forward pass of the 384 x 28 tile, and with 12-24 resident
// warps per SM the schedulers run out of independent work (the H100 profile of
// the lab's fused_pipelined_two_blocks with double: 0.73 eligible warps of 3
// per scheduler).
// Here chain k owns items [k M, k M + M) (M = N / K) and the K chains advance
// interleaved (item i of every chain, then item i + 1), so K adds are in
// flight per thread: the forward and backward passes' latency drops K-fold
// for K - 1 extra combines per thread per pass (the chains' carries), about
// 2 / N of the sample arithmetic.
//
// Association: a thread's items become K short chains joined by their
// totals, one more level of the tree the block scans already build; the error
// bound of docs/batched_scan.md (c(L) = 16 + 4 sqrt(L) plus the tree depth)
// is unchanged. Results are not bitwise those of scan_tile.
//
// The block scans are BlockScan's: the exclusive prefix is the shared
// warp-of-warp-totals scan, and the suffix takes the same tree form (TREE)
// instead of the serial walk over the warp totals (a dependent chain of
// BLOCK / 32 combines that scan_tile keeps for the older rungs' bitwise
// results).
#pragma once

#include <type_traits>

#include "families/batched_scan/scan_items.cuh"

namespace tessera::batched_scan_impl::gpu_detail {

// Forward (FWD) or backward pass over x in K chains, every item: v[j] = the
// inclusive or exclusive prefix (suffix) of x within j's chain; t[k] = chain
// k's total. The caller zeroes the items outside the row (mask_items): adding
// 0 leaves a sum exactly as it is (double-float: a normalised state; Kahan
// renormalises it, value kept), so no per-item test.
template <class R, int N, int K, bool FWD>
__device__ __forceinline__ void chain_items(const float (&x)[N], bool exclusive, typename R::acc_t (&v)[N],
                                            typename R::acc_t (&t)[K]) {
  static_assert(N % K == 0, "whole chains");
  constexpr int M = N / K;
#pragma unroll
  for (int k = 0; k < K; ++k) t[k] = R::identity();
#pragma unroll
  for (int s = 0; s < M; ++s) {
    const int i = FWD ? s : M - 1 - s;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int j = k * M + i;
      const typename R::acc_t before = t[k];
      R::add(t[k], x[j]);
      v[j] = exclusive ? before : t[k];
    }
  }
}

// The backward pass over the forward result, chain by chain: f[j] = c[k]
// (+) v[j] (c[k]: everything before chain k) is the row's forward value;
// v[j] becomes the suffix of f within j's chain, t[k] chain k's sum of f.
// MASKED: items outside [jlo, jhi) add the identity (a select, no branch):
// the row's tail items come first in this pass and leave the identity
// exactly the identity, so the row's items see the same arithmetic as
// unmasked; the head items come last and touch only t (padding chains and
// earlier threads: no stored output).
template <class R, int N, int K, bool MASKED>
__device__ __forceinline__ void chain_backward_of_forward(typename R::acc_t (&v)[N], const typename R::acc_t (&c)[K],
                                                          int jlo, int jhi, bool exclusive,
                                                          typename R::acc_t (&t)[K]) {
  constexpr int M = N / K;
#pragma unroll
  for (int k = 0; k < K; ++k) t[k] = R::identity();
#pragma unroll
  for (int i = M - 1; i >= 0; --i) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int j = k * M + i;
      typename R::acc_t f = R::combine(c[k], v[j]);
      if constexpr (MASKED)
        if (!(j >= jlo && j < jhi)) f = R::identity();
      const typename R::acc_t before = t[k];
      t[k] = R::combine(f, t[k]);
      v[j] = exclusive ? before : t[k];
    }
  }
}

// x[j] = 0 outside [jlo, jhi) (chain_items' padding).
template <int N>
__device__ __forceinline__ void mask_items(float (&x)[N], int jlo, int jhi) {
#pragma unroll
  for (int j = 0; j < N; ++j) x[j] = j >= jlo && j < jhi ? x[j] : 0.0f;
}

// c[k] = c0 (+) t[0] (+) ... (+) t[k - 1]: what precedes chain k.
template <class R, int K>
__device__ __forceinline__ void chain_prefixes(typename R::acc_t c0, const typename R::acc_t (&t)[K],
                                               typename R::acc_t (&c)[K]) {
  c[0] = c0;
#pragma unroll
  for (int k = 1; k < K; ++k) c[k] = R::combine(c[k - 1], t[k - 1]);
}

// c[k] = t[k + 1] (+) ... (+) t[K - 1] (+) cK: what follows chain k.
template <class R, int K>
__device__ __forceinline__ void chain_suffixes(typename R::acc_t cK, const typename R::acc_t (&t)[K],
                                               typename R::acc_t (&c)[K]) {
  c[K - 1] = cK;
#pragma unroll
  for (int k = K - 2; k >= 0; --k) c[k] = R::combine(t[k + 1], c[k + 1]);
}

// The thread's total, left to right.
template <class R, int K>
__device__ __forceinline__ typename R::acc_t chain_total(const typename R::acc_t (&t)[K]) {
  typename R::acc_t s = t[0];
#pragma unroll
  for (int k = 1; k < K; ++k) s = R::combine(s, t[k]);
  return s;
}

// finish(combine(a, b)) without the renormalisation that only the rounding
// to float would undo: for double-float, combine's fast_two_sum gives
// hi = fl(s + e) and lo its error, and fl(hi + lo) == hi, so the output is
// fl(s + e) (Kahan alike: fl(s - c)); 3 of the 12 additions per output
// saved. Identical to finish(combine(a, b)) but where fl(hi + lo) rounds a
// tie away from hi.
template <class R>
__device__ __forceinline__ float combine_finish(typename R::acc_t a, typename R::acc_t b) {
  // By state type: the lazy reducers (lazy_sums.cuh) share these states.
  if constexpr (std::is_same_v<typename R::acc_t, DFloatState>) {
    float s, e;
    detail::two_sum(a.hi, b.hi, s, e);
    return s + (e + (a.lo + b.lo));
  } else if constexpr (std::is_same_v<typename R::acc_t, KahanState>) {
    float s, e;
    detail::two_sum(a.s, b.s, s, e);
    return s - ((a.c + b.c) - e);
  } else {
    return R::finish(R::combine(a, b));
  }
}

template <class R, int N, int K>
__device__ __forceinline__ void chain_finish(const typename R::acc_t (&v)[N], const typename R::acc_t (&c)[K],
                                             float (&y)[N]) {
  constexpr int M = N / K;
#pragma unroll
  for (int j = 0; j < N; ++j) y[j] = combine_finish<R>(c[j / M], v[j]);
}

// scan_tile's contract (scan_items.cuh), K chains per thread; scratch2 is
// required (the second block scan of forward_backward). No FAST template:
// every thread runs the unpredicated item loops; a warp with a row edge in it
// (at most two per row: the head and the tail thread, and the empty threads
// past the row) zeroes its padding items first and masks the backward pass
// over the forward result, warp-uniformly (__all_sync), so that the edge
// warp neither diverges nor runs a second, predicated copy of the loops.
// Barrier: as scan_tile's (a named barrier for the consumer warps of a
// warp-specialised kernel).
template <class R, int N, int K, int BLOCK, class Barrier = gpu::BlockBarrier, class FwdCarry, class BwdCarry>
__device__ __forceinline__ void scan_tile_chains(const float (&x_in)[N], float (&y)[N], int jlo, int jhi,
                                                 ScanDirection dir, bool exclusive, typename R::acc_t* scratch,
                                                 FwdCarry&& fwd_carry, BwdCarry&& bwd_carry,
                                                 typename R::acc_t* scratch2) {
  using acc_t = typename R::acc_t;
  using Scan = BlockScan<R, BLOCK, Barrier>;
  // jlo == 0 && jhi == N, written as one OR: ptxas (CUDA 13, sm_90) folded
  // the two compares of the bulk rungs' kernel into a VIMNMX predicate that
  // came out false for every warp (the H100 source counters: every warp ran
  // the masked loops), costing ~10% of the double-float issue. Same value.
  const bool full = __all_sync(0xffffffffu, (jlo | (jhi ^ N)) == 0);  // every block is whole warps
  float x[N];
#pragma unroll
  for (int j = 0; j < N; ++j) x[j] = x_in[j];
  if (!full) mask_items<N>(x, jlo, jhi);
  acc_t v[N];
  acc_t t[K];
  acc_t c[K];
  acc_t total;
  if (dir == ScanDirection::backward) {
    chain_items<R, N, K, false>(x, exclusive, v, t);
    const acc_t after = Scan::template exclusive_suffix<true>(chain_total<R, K>(t), scratch, total);
    chain_suffixes<R, K>(R::combine(after, bwd_carry(total)), t, c);
    chain_finish<R, N, K>(v, c, y);
    return;
  }
  chain_items<R, N, K, true>(x, exclusive, v, t);
  const acc_t before = Scan::exclusive(chain_total<R, K>(t), scratch, total);
  chain_prefixes<R, K>(R::combine(fwd_carry(total), before), t, c);
  if (dir == ScanDirection::forward) {
    chain_finish<R, N, K>(v, c, y);
    return;
  }
  if (full) chain_backward_of_forward<R, N, K, false>(v, c, jlo, jhi, exclusive, t);
  else chain_backward_of_forward<R, N, K, true>(v, c, jlo, jhi, exclusive, t);
  const acc_t after = Scan::template exclusive_suffix<true>(chain_total<R, K>(t), scratch2, total);
  chain_suffixes<R, K>(R::combine(after, bwd_carry(total)), t, c);
  chain_finish<R, N, K>(v, c, y);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
