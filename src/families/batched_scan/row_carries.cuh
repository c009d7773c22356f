// The carries of one long row's tiles, computed by one warp from the tiles'
// totals (the long-row rungs: multi_tile's carries kernel runs it for every
// row; multi_tile_resident's finisher warp runs it for a row once the row's
// last tile is counted; multi_tile_streamed runs it in two levels, below).
// Tile k of a row has n_k samples, sample total X_k and tile-local
// forward-value total Q_k (stats[2t], stats[2t + 1]); it gets
//   carries[2t]     = P_k, the sum of X before tile k (forward carry);
//   carries[2t + 1] = the sum after it of X (backward) or, for
//                     forward_backward, of n_j * P_j + Q_j (the n_j forward
//                     values of tile j all share the carry P_j;
//                     scan_ops::scale, exact multiplier <= 2^24).
// Warp scans of 32 tiles at a time, CARRY_BATCH chunks loaded before any is
// scanned (the chain through the running carry is short, the loads are not:
// one chunk at a time made it ~20 us per row of 10^7 samples, 931 tiles, on
// the H100). Same association whoever runs it: the long-row rungs' outputs
// are bitwise equal, multi_tile_streamed's (another association, also fixed
// by the shape) excepted.
#pragma once

#include <cstring>

#include "families/batched_scan/ops.hpp"
#include "families/batched_scan/tile_kernel.cuh"
#include "tessera/blocks/lookback.cuh"
#include "tessera/blocks/warp_reduce.cuh"

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
// The items a carries level scans: a row's tiles (row_carries; the tiles
// of one chunk, chunk_carries) or a row's chunks (row_chunk_carries). x(k)
// is item k's sample total, q(k) its forward-value total relative to its
// own start, samples(k) its samples.
template <class acc_t, class Load>
struct TileItems {
  const acc_t* stats;  // the stats of the row's tile 0
  const float* x_row;
  std::size_t first, len;  // item k is the row's tile first + k
  Load load;
  __device__ __forceinline__ acc_t x(std::size_t k) const { return load(stats + 2 * (first + k)); }
  __device__ __forceinline__ acc_t q(std::size_t k) const { return load(stats + 2 * (first + k) + 1); }
  __device__ __forceinline__ std::uint32_t samples(std::size_t k) const { return tile_samples(x_row, first + k, len); }
};

// A level's totals: x, its items' sample total (where forward carries are
// computed), and after, the backward carry before item 0 (the sum of every
// item's backward term; where backward carries are computed).
template <class acc_t>
struct LevelTotals {
  acc_t x, after;
};

// One warp (lane = threadIdx.x % 32) computes the carries of `count` items
// into `out` (GlobalCarries): the forward carry P_k = the x
// before item k; the backward carry = the sum after it of x (backward) or,
// for forward_backward, of samples(j) * P_j + q(j) (the forward values of
// item j all share the carry P_j; scan_ops::scale, exact multiplier
// <= 2^24).
template <class R, class Items, class Sink>
__device__ __forceinline__ LevelTotals<typename R::acc_t> level_carries(std::size_t count, ScanDirection dir,
                                                                        const Items& items, const Sink& out) {
  using acc_t = typename R::acc_t;
  const StatesOf<R> f{};
  const unsigned lane = threadIdx.x % 32;
  const std::size_t T = count;
  LevelTotals<acc_t> totals{R::identity(), R::identity()};
  if (dir != ScanDirection::backward) {
    acc_t p = R::identity();
    for (std::size_t c0 = 0; c0 < T; c0 += 32 * CARRY_BATCH) {
      acc_t v[CARRY_BATCH];
#pragma unroll
      for (int u = 0; u < CARRY_BATCH; ++u) {
        const std::size_t k = c0 + 32 * u + lane;
        v[u] = k < T ? items.x(k) : R::identity();
      }
#pragma unroll
      for (int u = 0; u < CARRY_BATCH; ++u) {
        if (c0 + 32 * u >= T) break;  // warp-uniform: no scans of chunks past the items (a 32-tile level: 1 of 4)
        const std::size_t k = c0 + 32 * u + lane;
        const acc_t incl = gpu::warp_inclusive_scan(v[u], f);
        const acc_t excl = gpu::warp_exclusive_from_inclusive(incl, f);
        if (k < T) out.put_forward(k, R::combine(p, excl));
        p = R::combine(p, gpu::shfl_idx_any(incl, 31));
      }
    }
    totals.x = p;
  }
  if (dir == ScanDirection::forward) return totals;
  __syncwarp();
  // Backward carries, chunks of 32 from the end (batched the same way);
  // lane l handles the same items as above (it reads back its own forward
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
        if (dir == ScanDirection::backward)
          v[u] = items.x(k);
        else
          v[u] = R::combine(scan_ops::scale(out.forward(k), items.samples(k)), items.q(k));
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
  totals.after = after;
  return totals;
}

// Every tile of a row, `load` reading the stats (tile k: X_k at stats[2t],
// Q_k at stats[2t + 1], t = row * T + k).
template <class R, class Load, class Sink>
__device__ __forceinline__ void row_carries_to(std::size_t row, const float* in, std::size_t in_pitch, std::size_t len,
                                               std::size_t T, ScanDirection dir, const typename R::acc_t* stats,
                                               const Sink& out, Load load) {
  using acc_t = typename R::acc_t;
  level_carries<R>(T, dir, TileItems<acc_t, Load>{stats + 2 * row * T, in + row * in_pitch, 0, len, load}, out);
}

// Two-level carries (multi_tile_streamed): a row's tiles in chunks of
// CHUNK_TILES. chunk_carries gives each tile of chunk c its carries within
// the chunk (as if the chunk began the row) and writes the chunk's totals;
// once every chunk of the row has them, row_chunk_carries gives each chunk
// its carries F_c, B_c within the row, and a tile's carries are
//   P = F_c + P_local,
//   B = B_local + B_c (backward), or
//   B = B_local + (the samples after the tile in its chunk) * F_c + B_c
//       (forward_backward: the local forward values all lack F_c)
// (tile_carries_from_chunks). Each level is one warp scan each way: the
// scans of a row wait only for its last chunk's level and the row's one
// level over <= 32 chunks (rows of up to 11 million samples), where
// row_carries runs a warp scan per 32 tiles along the whole row.
constexpr int CHUNK_TILES = 32;

__host__ __device__ __forceinline__ std::size_t chunks_of(std::size_t T) {
  return (T + CHUNK_TILES - 1) / CHUNK_TILES;
}
__device__ __forceinline__ std::size_t chunk_tiles(std::size_t T, std::size_t c) {
  const std::size_t k0 = c * CHUNK_TILES;
  return T - k0 < CHUNK_TILES ? T - k0 : CHUNK_TILES;
}
// The end of tile k's samples in its row (non-decreasing in k).
__device__ __forceinline__ long long tile_end(const float* x_row, std::size_t k, std::size_t len) {
  return tile_span(x_row, static_cast<long long>(k), static_cast<long long>(len)).hi;
}
__device__ __forceinline__ std::uint32_t chunk_samples(const float* x_row, std::size_t c, std::size_t T,
                                                       std::size_t len) {
  const std::size_t k0 = c * CHUNK_TILES;
  const long long begin = k0 == 0 ? 0 : tile_end(x_row, k0 - 1, len);
  return static_cast<std::uint32_t>(tile_end(x_row, k0 + chunk_tiles(T, c) - 1, len) - begin);
}

// A row's chunks as a level's items: chunk_stats[2c] = the chunk's X,
// [2c + 1] its after total.
template <class acc_t>
struct ChunkItems {
  const acc_t* chunk_stats;  // the row's chunk 0
  const float* x_row;
  std::size_t T, len;
  __device__ __forceinline__ acc_t x(std::size_t c) const { return load_cg(chunk_stats + 2 * c); }
  __device__ __forceinline__ acc_t q(std::size_t c) const { return load_cg(chunk_stats + 2 * c + 1); }
  __device__ __forceinline__ std::uint32_t samples(std::size_t c) const { return chunk_samples(x_row, c, T, len); }
};

// Chunk c of a row: its tiles' local carries to carries (as row_carries'),
// its totals to chunk_stats[2g], [2g + 1] (g = row * chunks + c). Reads
// the stats through L2: other SMs wrote them.
template <class R>
__device__ __forceinline__ void chunk_carries(std::size_t row, std::size_t c, const float* x_row, std::size_t len,
                                              std::size_t T, ScanDirection dir, const typename R::acc_t* stats,
                                              typename R::acc_t* carries, typename R::acc_t* chunk_stats) {
  using acc_t = typename R::acc_t;
  const LevelTotals<acc_t> t =
      level_carries<R>(chunk_tiles(T, c), dir,
                       TileItems<acc_t, L2Load>{stats + 2 * row * T, x_row, c * CHUNK_TILES, len, L2Load{}},
                       GlobalCarries<acc_t>{carries, row * T + c * CHUNK_TILES});
  if (threadIdx.x % 32 == 0) {
    const std::size_t g = row * chunks_of(T) + c;
    chunk_stats[2 * g] = dir == ScanDirection::backward ? t.after : t.x;  // the backward pass's after is the X sum
    chunk_stats[2 * g + 1] = t.after;
  }
}

// Every chunk of the row: its carries to chunk_carries[2g], [2g + 1].
template <class R>
__device__ __forceinline__ void row_chunk_carries(std::size_t row, const float* x_row, std::size_t len, std::size_t T,
                                                  ScanDirection dir, const typename R::acc_t* chunk_stats,
                                                  typename R::acc_t* chunk_carries) {
  using acc_t = typename R::acc_t;
  const std::size_t C = chunks_of(T);
  level_carries<R>(C, dir, ChunkItems<acc_t>{chunk_stats + 2 * row * C, x_row, T, len},
                   GlobalCarries<acc_t>{chunk_carries, row * C});
}

// Tile k of a row: its carries from its local ones and its chunk's.
template <class R>
__device__ __forceinline__ void tile_carries_from_chunks(std::size_t row, std::size_t k, const float* x_row,
                                                         std::size_t len, std::size_t T, ScanDirection dir,
                                                         const typename R::acc_t* carries,
                                                         const typename R::acc_t* chunk_carries,
                                                         typename R::acc_t& forward, typename R::acc_t& backward) {
  using acc_t = typename R::acc_t;
  const std::size_t c = k / CHUNK_TILES, g = row * chunks_of(T) + c, t = row * T + k;
  const acc_t f_c = load_cg(chunk_carries + 2 * g), b_c = load_cg(chunk_carries + 2 * g + 1);
  const acc_t f_local = load_cg(carries + 2 * t), b_local = load_cg(carries + 2 * t + 1);
  forward = dir == ScanDirection::backward ? R::identity() : R::combine(f_c, f_local);
  backward = R::identity();
  if (dir == ScanDirection::backward) {
    backward = R::combine(b_local, b_c);
  } else if (dir == ScanDirection::forward_backward) {
    const std::size_t last = c * CHUNK_TILES + chunk_tiles(T, c) - 1;
    const auto after = static_cast<std::uint32_t>(tile_end(x_row, last, len) - tile_end(x_row, k, len));
    backward = R::combine(R::combine(b_local, scan_ops::scale(f_c, after)), b_c);
  }
}

// Every tile's carries to carries[2t], carries[2t + 1].
template <class R, class Load>
__device__ __forceinline__ void row_carries(std::size_t row, const float* in, std::size_t in_pitch, std::size_t len,
                                            std::size_t T, ScanDirection dir, const typename R::acc_t* stats,
                                            typename R::acc_t* carries, Load load) {
  row_carries_to<R>(row, in, in_pitch, len, T, dir, stats, GlobalCarries<typename R::acc_t>{carries, row * T}, load);
}

// One tile's carries without a scan (multi_tile_resident_self's carry warp,
// once per tile): tile k of a row of T tiles gets
//   P_k = the sum of X_i over i < k,
//   B_k = the sum of X_i over i > k (backward), or, for forward_backward,
//   B_k = A_k (P_k + X_k) + the sum over i > k of (Q_i + A_i X_i),
// A_i being the samples after tile i: the sum over j > k of n_j P_j + Q_j
// (level_carries' terms) regrouped by X_i, since P_j = P_{k+1} + the X of
// the tiles between. So each lane folds its tiles (i = lane + 32 m) into two
// masked sums and one warp reduction finishes each: T / 32 combines per lane
// (3 for rows of 10^6 samples) and 2 x 5 butterfly steps, where level_carries
// runs a warp scan per 32 tiles each way and scales every tile's forward
// carry. The H100 profile of the scan form (double-float, rows of 10^6
// samples): ~1,330 instructions per tile, the carry warp busy ~90% of the
// time and the consumers waiting for it ~18% of theirs; this form took
// multi_tile_resident_self from 63.2 to 74.8% of copy there
// (docs/results/batched_scan-one-tile-carries-h100-2026-11-24.txt). Another
// association than level_carries' (the same error bound: every term is a tile
// total times an exact integer), fixed by the shape, so deterministic.
template <class R, class Load>
__device__ __forceinline__ void one_tile_carries(std::size_t k, std::size_t T, ScanDirection dir,
                                                 const typename R::acc_t* row_stats, const float* x_row,
                                                 std::size_t len, Load load, typename R::acc_t& forward,
                                                 typename R::acc_t& backward) {
  using acc_t = typename R::acc_t;
  const unsigned lane = threadIdx.x % 32;
  const bool fb = dir == ScanDirection::forward_backward;
  acc_t before = R::identity(), after = R::identity(), x_k = R::identity();
  // A_i v, exact in float (rows of < 2^24 samples); nothing where A_i is 0
  // (the row's last tile: 0 x an infinite total would be a NaN).
  const auto times_after = [&](acc_t v, std::size_t i) {
    const auto a = static_cast<std::uint32_t>(static_cast<long long>(len) - tile_end(x_row, i, len));
    return a == 0 ? R::identity() : scan_ops::scale(v, a);
  };
  for (std::size_t i0 = 0; i0 < T; i0 += 32 * CARRY_BATCH) {
    acc_t x[CARRY_BATCH], q[CARRY_BATCH];
#pragma unroll
    for (int u = 0; u < CARRY_BATCH; ++u) {  // every load before any sum
      const std::size_t i = i0 + 32 * u + lane;
      x[u] = i < T ? load(row_stats + 2 * i) : R::identity();
      q[u] = i < T && fb && i > k ? load(row_stats + 2 * i + 1) : R::identity();
    }
#pragma unroll
    for (int u = 0; u < CARRY_BATCH; ++u) {
      const std::size_t i = i0 + 32 * u + lane;
      if (i >= T) break;
      if (i < k) {
        before = R::combine(before, x[u]);
      } else if (i == k) {
        x_k = x[u];
      } else if (dir != ScanDirection::forward) {
        after = R::combine(after, fb ? R::combine(q[u], times_after(x[u], i)) : x[u]);
      }
    }
  }
  // Only the sums the direction needs (dir is warp-uniform).
  forward = R::identity();
  backward = R::identity();
  if (dir != ScanDirection::backward) forward = before = gpu::warp_reduce_xor<R>(before);
  if (dir == ScanDirection::forward) return;
  after = gpu::warp_reduce_xor<R>(after);
  if (fb) {
    x_k = gpu::shfl_idx_any(x_k, static_cast<int>(k % 32));
    backward = R::combine(times_after(R::combine(before, x_k), k), after);
  } else {
    backward = after;
  }
}

// Chained rows (forward or backward alone, rows past the resident capacity;
// 06_multi_tile_resident.cu): a tile's only carry is the sum of the tiles
// before it in the scan's direction, so it needs no sum over the row's end
// and each sample is read once. Positions count from the row's start
// (forward) or its end (backward). A tile at position p of chunk c (32
// positions) gets
//   carry = (sum of the totals of chunks 0 .. c-2) + (sum of X over the
//           positions of chunks c-1 and c before p),
// each a lane-strided sum finished by one warp reduction: the association
// is fixed by the shape (deterministic). A chunk's total is published by
// the finisher warp of the block whose tile completes the chunk
// (chained_chunk_total): chunk_state[g] counts the chunk's published tiles
// and passes their number once the total is out. Every value waited for
// belongs to tiles claimed earlier, and no total waits for a carry: no
// deadlock, and no chain of carries.
// tile_flag[t] (zeroed before the launch) is set with release semantics
// after stats[2t] (lookback.cuh's store_release_u32).
__device__ __forceinline__ void wait_above(const unsigned* flag, unsigned above) {
  while (gpu::lookback_detail::load_acquire_u32(flag) <= above) __nanosleep(32);
}
__device__ __forceinline__ std::size_t chained_position(std::size_t k, std::size_t T, bool backward) {
  return backward ? T - 1 - k : k;
}

// The total of chunk c of `row` (one warp, every tile of the chunk
// published), then chunk_state[g] past the chunk's tile count.
template <class R>
__device__ __forceinline__ void chained_chunk_total(std::size_t row, std::size_t c, std::size_t T, bool backward,
                                                    const typename R::acc_t* stats, typename R::acc_t* chunk_totals,
                                                    unsigned* chunk_state) {
  using acc_t = typename R::acc_t;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t p = c * CHUNK_TILES + lane, g = row * chunks_of(T) + c;
  acc_t x = R::identity();
  if (lane < chunk_tiles(T, c)) x = load_cg(stats + 2 * (row * T + chained_position(p, T, backward)));
  x = gpu::warp_reduce_xor<R>(x);
  if (lane == 0) {
    chunk_totals[2 * g] = x;
    __threadfence();
    atomicAdd(chunk_state + g, 1u);
  }
}

// The carry of tile k of `row` (all lanes of one warp; the result in every
// lane). stats: X of tile t at stats[2t].
template <class R>
__device__ __forceinline__ typename R::acc_t chained_tile_carry(std::size_t row, std::size_t k, std::size_t T,
                                                                bool backward, const typename R::acc_t* stats,
                                                                const unsigned* tile_flag,
                                                                const typename R::acc_t* chunk_totals,
                                                                const unsigned* chunk_state) {
  using acc_t = typename R::acc_t;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t C = chunks_of(T), pos = chained_position(k, T, backward);
  // The positions of the chunk before the tile's one stay tile by tile, so
  // that a tile never waits for the total of the chunk just before it (its
  // last tile lands about when this one does; its finisher takes ~2 us more).
  const std::size_t c = pos / CHUNK_TILES, first = c > 0 ? (c - 1) * CHUNK_TILES : 0;
  acc_t chunks = R::identity(), before = R::identity();
#pragma unroll
  for (int m = 0; m < 2; ++m) {  // two positions per lane at most
    const std::size_t q = first + lane + 32 * m;
    if (q < pos) {
      const std::size_t t = row * T + chained_position(q, T, backward);
      wait_above(tile_flag + t, 0);
      before = R::combine(before, load_cg(stats + 2 * t));
    }
  }
  for (std::size_t d = lane; d + 1 < c; d += 32) {
    const std::size_t g = row * C + d;
    wait_above(chunk_state + g, static_cast<unsigned>(chunk_tiles(T, d)));
    chunks = R::combine(chunks, load_cg(chunk_totals + 2 * g));
  }
  chunks = gpu::warp_reduce_xor<R>(chunks);
  before = gpu::warp_reduce_xor<R>(before);
  return R::combine(chunks, before);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
