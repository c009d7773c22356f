// The carries of one long row's tiles, computed by one warp from the tiles'
// totals (the long-row rungs: multi_tile's carries kernel runs it for every
// row; multi_tile_resident's aggregator runs it for a row once the row's
// last tile is counted). Tile k of a row has n_k samples, sample total X_k
// and tile-local forward-value total Q_k (stats[2t], stats[2t + 1]); it gets
//   carries[2t]     = P_k, the sum of X before tile k (forward carry);
//   carries[2t + 1] = the sum after it of X (backward) or, for
//                     forward_backward, of n_j * P_j + Q_j (the n_j forward
//                     values of tile j all share the carry P_j;
//                     scan_ops::scale, exact multiplier <= 2^24).
// Warp scans of 32 tiles at a time, CARRY_BATCH chunks loaded before any is
// scanned (the chain through the running carry is short, the loads are not:
// one chunk at a time made it ~20 us per row of 10^7 samples, 931 tiles, on
// the H100). Same association whoever runs it: the long-row rungs' outputs
// are bitwise equal.
#pragma once

#include <cstring>

#include "common/batched_scan_ops.hpp"
#include "cuda/batched_scan/tile_kernel.cuh"

namespace tessera::batched_scan_impl::gpu_detail {

constexpr int CARRY_BATCH = 4;  // chunks of 32 tile totals a warp loads at once

// A state read through L2 (ld.global.cg): written by other SMs in the same
// kernel, so not from a possibly stale L1 line.
template <class T>
__device__ __forceinline__ T load_cg(const T* p) {
  T v;
  if constexpr (sizeof(T) == 4) {
    const unsigned w = __ldcg(reinterpret_cast<const unsigned*>(p));
    memcpy(&v, &w, sizeof(T));
  } else {
    static_assert(sizeof(T) == 8, "4- or 8-byte states");
    const uint2 w = __ldcg(reinterpret_cast<const uint2*>(p));
    memcpy(&v, &w, sizeof(T));
  }
  return v;
}

struct PlainLoad {
  template <class T>
  __device__ __forceinline__ T operator()(const T* p) const { return *p; }
};
struct L2Load {
  template <class T>
  __device__ __forceinline__ T operator()(const T* p) const { return load_cg(p); }
};

// The samples of tile k of a row (0 for a row's empty last tile).
__device__ __forceinline__ std::uint32_t tile_samples(const float* x_row, std::size_t k, std::size_t len) {
  const TileSpan s = tile_span(x_row, static_cast<long long>(k), static_cast<long long>(len));
  return s.hi > s.lo ? static_cast<std::uint32_t>(s.hi - s.lo) : 0u;
}

// Where row_carries puts tile k's carries (k: index within the row).
// GlobalCarries: carries[2 (base + k)] and [2 (base + k) + 1], every tile.
template <class acc_t>
struct GlobalCarries {
  acc_t* carries;
  std::size_t base;
  __device__ __forceinline__ void put_forward(std::size_t k, acc_t v) const { carries[2 * (base + k)] = v; }
  __device__ __forceinline__ acc_t forward(std::size_t k) const { return carries[2 * (base + k)]; }
  __device__ __forceinline__ void put_backward(std::size_t k, acc_t v) const { carries[2 * (base + k) + 1] = v; }
};
// OneTileCarries: the forward carries of every tile in shared memory (the
// backward pass needs them), the backward carry of tile `mine` only.
template <class acc_t>
struct OneTileCarries {
  acc_t* forward_of;  // T states of shared memory
  acc_t* backward_of_mine;
  std::size_t mine;
  __device__ __forceinline__ void put_forward(std::size_t k, acc_t v) const { forward_of[k] = v; }
  __device__ __forceinline__ acc_t forward(std::size_t k) const { return forward_of[k]; }
  __device__ __forceinline__ void put_backward(std::size_t k, acc_t v) const {
    if (k == mine) *backward_of_mine = v;
  }
};

// The whole warp calls it (lane = threadIdx.x % 32); `load` reads stats,
// `out` takes the carries (GlobalCarries, OneTileCarries).
template <class R, class Load, class Sink>
__device__ __forceinline__ void row_carries_to(std::size_t row, const float* in, std::size_t in_pitch, std::size_t len,
                                               std::size_t T, ScanDirection dir, const typename R::acc_t* stats,
                                               const Sink& out, Load load) {
  using acc_t = typename R::acc_t;
  const StatesOf<R> f{};
  const unsigned lane = threadIdx.x % 32;
  const std::size_t base = row * T;
  const float* x_row = in + row * in_pitch;
  if (dir != ScanDirection::backward) {
    acc_t p = R::identity();
    for (std::size_t c0 = 0; c0 < T; c0 += 32 * CARRY_BATCH) {
      acc_t v[CARRY_BATCH];
#pragma unroll
      for (int u = 0; u < CARRY_BATCH; ++u) {
        const std::size_t k = c0 + 32 * u + lane;
        v[u] = k < T ? load(stats + 2 * (base + k)) : R::identity();
      }
#pragma unroll
      for (int u = 0; u < CARRY_BATCH; ++u) {
        const std::size_t k = c0 + 32 * u + lane;
        const acc_t incl = gpu::warp_inclusive_scan(v[u], f);
        const acc_t excl = gpu::warp_exclusive_from_inclusive(incl, f);
        if (k < T) out.put_forward(k, R::combine(p, excl));
        p = R::combine(p, gpu::shfl_idx_any(incl, 31));
      }
    }
  }
  if (dir == ScanDirection::forward) return;
  __syncwarp();
  // Backward carries, chunks from the row's end (batched the same way);
  // lane l handles the same tiles as above (it reads back its own forward
  // carries: no other lane's, so no barrier beyond the __syncwarp).
  acc_t after = R::identity();
  const std::size_t chunks = (T + 31) / 32;
  for (std::size_t c_end = chunks; c_end > 0;) {
    const std::size_t batch = c_end < CARRY_BATCH ? c_end : CARRY_BATCH;
    acc_t v[CARRY_BATCH];
#pragma unroll
    for (int u = 0; u < CARRY_BATCH; ++u) {
      v[u] = R::identity();
      const std::size_t k = (c_end - 1 - u) * 32 + lane;  // chunk c_end - 1 - u
      if (static_cast<std::size_t>(u) < batch && k < T) {
        if (dir == ScanDirection::backward) {
          v[u] = load(stats + 2 * (base + k));
        } else {
          v[u] = R::combine(scan_ops::scale(out.forward(k), tile_samples(x_row, k, len)),
                            load(stats + 2 * (base + k) + 1));
        }
      }
    }
#pragma unroll
    for (int u = 0; u < CARRY_BATCH; ++u) {
      if (static_cast<std::size_t>(u) < batch) {  // warp-uniform
        const std::size_t k = (c_end - 1 - u) * 32 + lane;
        const acc_t incl = warp_inclusive_suffix_scan<R>(v[u]);
        const acc_t next = shfl_down_any(incl, 1);
        if (k < T) out.put_backward(k, lane == 31 ? after : R::combine(next, after));
        after = R::combine(gpu::shfl_idx_any(incl, 0), after);
      }
    }
    c_end -= batch;
  }
}

// The carries of a row of at most 32 * SEG tiles with few dependent steps:
// lane l owns the tiles [l S, l S + S) (S = ceil(T / 32)), loads all their
// totals at once, sums its segment serially, one warp scan each way
// combines the segments, and each lane then walks its own tiles. Where
// row_carries runs a warp scan per 32 tiles (some 60 for a row of 931
// tiles), this runs 2. multi_tile_resident's finisher warp, sharing its SM
// with 16 busy warps, took 20-37 us per streamed float row of 10^7 samples
// with row_carries, 13-25 us with this (double-float 55-65 us), and every
// scan of the row waits for it. Another association than row_carries (the segments'
// forward-value totals are n * P_seg + sum (n lp + Q)): deterministic, not
// bitwise row_carries. Not inlined: its 2 * SEG states per lane spill, if
// at all, here and not in the calling kernel's other warp roles.
template <class R, int SEG, class Load>
__device__ __noinline__ void row_carries_segmented(std::size_t row, const float* in, std::size_t in_pitch,
                                                   std::size_t len, std::size_t T, ScanDirection dir,
                                                   const typename R::acc_t* stats, typename R::acc_t* carries,
                                                   Load load) {
  using acc_t = typename R::acc_t;
  const StatesOf<R> f{};
  const unsigned lane = threadIdx.x % 32;
  const std::size_t base = row * T;
  const bool fb = dir == ScanDirection::forward_backward, want_fwd = dir != ScanDirection::backward;
  const std::size_t S = (T + 31) / 32, k0 = lane * S;
  const int cnt = k0 < T ? static_cast<int>(T - k0 < S ? T - k0 : S) : 0;
  const float* x_row = in + row * in_pitch;
  acc_t x[SEG], q[SEG];
#pragma unroll
  for (int j = 0; j < SEG; ++j) {
    x[j] = j < cnt ? load(stats + 2 * (base + k0 + j)) : R::identity();
    q[j] = fb && j < cnt ? load(stats + 2 * (base + k0 + j) + 1) : R::identity();
  }
  // The segment's X total (x[j] becomes the exclusive local prefix lp_j
  // where forward carries are wanted) and, for forward_backward, N = sum n
  // and W = sum (n lp + Q).
  acc_t lp = R::identity(), w = R::identity();
  std::uint32_t n_seg = 0;
#pragma unroll
  for (int j = 0; j < SEG; ++j) {
    if (j < cnt) {
      const acc_t xj = x[j];
      if (want_fwd) x[j] = lp;
      if (fb) {
        const std::uint32_t n = tile_samples(x_row, k0 + j, len);
        w = R::combine(w, R::combine(scan_ops::scale(lp, n), q[j]));
        n_seg += n;
      }
      lp = R::combine(lp, xj);
    }
  }
  // Segments combined: P_seg (the X before the segment), then the backward
  // total after it.
  const acc_t incl = gpu::warp_inclusive_scan(lp, f);
  const acc_t p_seg = gpu::warp_exclusive_from_inclusive(incl, f);
  acc_t after = R::identity();
  if (dir != ScanDirection::forward) {
    const acc_t v_seg = fb ? R::combine(scan_ops::scale(p_seg, n_seg), w) : lp;
    const acc_t sincl = warp_inclusive_suffix_scan<R>(v_seg);
    const acc_t next = shfl_down_any(sincl, 1);
    after = lane == 31 ? R::identity() : next;
  }
  // Each lane's tiles, last first: P_t = P_seg + lp_t; B_t = the sum after t.
#pragma unroll
  for (int j = SEG - 1; j >= 0; --j) {
    if (j < cnt) {
      const std::size_t k = base + k0 + j;
      const acc_t p = R::combine(p_seg, x[j]);
      if (want_fwd) carries[2 * k] = p;
      if (dir != ScanDirection::forward) {
        carries[2 * k + 1] = after;
        after = R::combine(fb ? R::combine(scan_ops::scale(p, tile_samples(x_row, k0 + j, len)), q[j]) : x[j], after);
      }
    }
  }
}

// Every tile's carries to carries[2t], carries[2t + 1].
template <class R, class Load>
__device__ __forceinline__ void row_carries(std::size_t row, const float* in, std::size_t in_pitch, std::size_t len,
                                            std::size_t T, ScanDirection dir, const typename R::acc_t* stats,
                                            typename R::acc_t* carries, Load load) {
  row_carries_to<R>(row, in, in_pitch, len, T, dir, stats, GlobalCarries<typename R::acc_t>{carries, row * T}, load);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
