// Step 9 refinement (variants lookback_cluster, lookback_cluster8): the
// early-publishing look-back (lookback_early.cuh) run by thread block
// clusters of C CTAs, which scan one super-tile of C sub-tiles together, so
// that the decoupled look-back runs over C times fewer, C times larger tiles.
//
// ---- Why (H100 profile of lookback_early_publish, float sum 2^28) ----------
// 843 us (85% of copy), DRAM 75% busy, 0.13 eligible warps per scheduler:
// every block waits. A tile's inclusive prefix goes out only once its
// look-back found an inclusive predecessor inside its 32-slot window, so the
// inclusive frontier advances at most ~32 tiles per publish + poll round
// trip (~1 us); 264 resident 48 KiB tiles living ~8 us each need ~31 tiles
// per us: the frontier, not DRAM, sets the pace. With C-CTA super-tiles the
// frontier moves C x 48 KiB per tile it passes (32 super-tiles = 6 MiB per
// window at C = 4), and 66 resident super-tiles (C = 4) need ~8 per us,
// a quarter of what a window delivers: the look-back stops limiting without
// a wider (costlier) poll.
//
// ---- A super-tile's life (every CTA: 256 threads x 12 vectors = 48 KiB) ----
//   A. rank 0's thread 0 takes the super-tile index from the atomic counter
//      into its shared memory (meanwhile every CTA prefetches into L2 the
//      sub-tile it would get if the counter followed blockIdx.x, as in
//      lookback_early); cluster barrier A (it also guarantees every CTA has
//      started, the condition for any distributed shared memory access);
//      every CTA reads the index from rank 0's shared memory.
//   B. each CTA loads its sub-tile (super-tile * C + rank, in the tile layout
//      of lookback_tile.cuh), folds it, reduces it (thread total, warp
//      butterfly, one __syncthreads) and its warp 0 writes the sub-tile
//      aggregate into rank 0's shared memory; everyone arrives at barrier B.
//      Rank 0's warp 0 waits at once, combines the C aggregates, publishes the
//      super-tile aggregate (early publish; super-tile 0: its inclusive
//      prefix), looks back over super-tiles (warp_lookback_sparse, the
//      32-slot sparse window), publishes the inclusive prefix and writes each
//      rank's exclusive prefix (super-tile prefix . aggregates of the lower
//      ranks) into that rank's shared memory. Every other warp of the cluster
//      does its row scans meanwhile (they fall between arriving at B and
//      waiting on it), then arrives at barrier C.
//   C. after barrier C every CTA reads its prefix from its own shared memory
//      and stores (st.global.cs, as lookback_early). Rank 0's warp 0 does its
//      row scans after C, while the others store. No distributed shared
//      memory access follows C, so no exit barrier is needed: a CTA's shared
//      memory is touched by others only before barriers it waits on itself.
// Ragged ends: sub-tiles past the end (the last super-tile may have fewer
// than C) fold identities, publish nothing of their own, store nothing, and
// still pass every barrier (no early return anywhere).
//
// ---- Costs and prediction ----------------------------------------------------
// Three cluster barriers per super-tile instead of the tile-index barrier
// and two __syncthreads of lookback_early: barrier A overlaps the counter's
// round trip that lookback_early also waits for; B costs rank 0's look-back
// warp one cluster barrier latency (~0.2-0.5 us, measured hardware figures
// for clusters of 2-8 are a few hundred cycles) before it can publish; C
// stands where lookback_early's second __syncthreads stood. The price is
// coupling: a super-tile is done when its slowest sub-tile's loads land, and
// the C ranks' warps idle together during the look-back of rank 0 (but one
// look-back per C sub-tiles, and each is short since the frontier is near).
// Expected (float sum 2^28): 88-93% of copy, 1.08-1.12x cub::DeviceScan, at
// C = 4; C = 8 about the same or a point less (more coupling, 33 resident
// super-tiles). Profile (ncu): the frontier should no longer show: look at
// "dram__throughput" (aim > 85%), stall reasons of rank 0's warp 0
// (barrier vs. long scoreboard), and cudaOccupancyMaxActiveClusters (should
// be 66 at C = 4 and 33 at C = 8 with 2 CTAs per SM; fewer means GPCs leave
// SMs idle).
//
// Types: 4-byte elements with the native accumulator, ops sum/min/max (the
// registry's four_byte_native set), like lookback_early.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "cuda/common/cluster.cuh"
#include "cuda/common/launch.cuh"
#include "cuda/common/lookback_sparse.cuh"
#include "cuda/common/multipass.cuh"
#include "cuda/common/prefetch.cuh"
#include "cuda/scan/lookback_early.cuh"
#include "cuda/scan/lookback_tile.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::gpu {

// Super-tiles of C sub-tiles for a layout of `tiles` sub-tiles.
constexpr unsigned cluster_super_tiles(unsigned tiles, unsigned cluster) { return (tiles + cluster - 1) / cluster; }

template <class P, int CLUSTER, class F>
__global__ __launch_bounds__(P::THREADS, P::MIN_BLOCKS) void scan_lookback_cluster_kernel(const typename F::in_t* in,
                                                                                          typename F::out_t* out,
                                                                                          ScanLayout layout,
                                                                                          void* workspace, F f) {
  using L = LookbackScan<P, F>;
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  static_assert(vectorizable16<in_t> && std::is_same_v<in_t, acc_t>, "4-byte-class native scans only");
  static_assert(CLUSTER >= 2 && CLUSTER <= 8, "CLUSTER: 2..8 CTAs (the portable cluster sizes)");
  constexpr int VECTORS = P::VECTORS;
  constexpr int VEC = L::VEC;
  constexpr int WARPS = P::THREADS / 32;

  // s_super and s_sub_totals are used in rank 0's copy only (the others read
  // and write them there); s_prefix is written by rank 0 into each rank's copy.
  __shared__ unsigned s_super;
  __shared__ alignas(16) unsigned char s_raw[sizeof(acc_t) * (WARPS + 1 + CLUSTER)];
  acc_t* s_warp_totals = reinterpret_cast<acc_t*>(s_raw);
  acc_t* s_prefix = s_warp_totals + WARPS;
  acc_t* s_sub_totals = s_prefix + 1;

  const unsigned rank = cluster_rank();
  const unsigned lane = lane_index();
  const unsigned warp = threadIdx.x / 32;
  const long long n = static_cast<long long>(layout.n);
  const long long thread_offset = static_cast<long long>(warp) * L::WARP_ITEMS + static_cast<long long>(lane) * VEC;
  const unsigned super_tiles = cluster_super_tiles(layout.tiles, CLUSTER);

  // ---- A: the super-tile index, overlapped with an L2 prefetch ---------------
  // Clusters are blockIdx.x / CLUSTER and ranks blockIdx.x % CLUSTER (1-D
  // clusters along x), so sub-tile blockIdx.x is the guess (see lookback_early).
  prefetch_tile_l2<P, F>(in, layout, blockIdx.x, thread_offset);
  unsigned char* ws = static_cast<unsigned char*>(workspace);
  const TileStatus<acc_t> status(ws + L::COUNTER_BYTES, super_tiles);
  if (rank == 0 && threadIdx.x == 0) s_super = atomicAdd(reinterpret_cast<unsigned*>(ws), 1u);
  cluster_arrive();
  cluster_wait();
  const unsigned super = *cluster_map(&s_super, 0);

  const unsigned tile = super * CLUSTER + rank;  // this CTA's sub-tile
  const long long begin = static_cast<long long>(tile) * static_cast<long long>(L::TILE_ITEMS) - layout.shift;
  const long long first = begin + thread_offset;
  const bool full = begin >= 0 && begin + static_cast<long long>(L::TILE_ITEMS) <= n;

  // ---- B: load (all vectors issued before the first use), fold, aggregate ----
  acc_t s[VECTORS][VEC];
  load_fold_tile<P>(f, in, layout, full, first, s);  // scalar path: partial, empty or unaligned sub-tiles
  const acc_t warp_total = tile_warp_total<P>(f, s);
  if (lane == 0) s_warp_totals[warp] = warp_total;
  __syncthreads();
  acc_t tile_total;
  const acc_t warp_prefix = warp_prefix_from_totals<P::THREADS>(s_warp_totals, f, tile_total);
  if (warp == 0 && lane == 0) *cluster_map(s_sub_totals + rank, 0) = tile_total;
  cluster_arrive();

  const bool looks_back = rank == 0 && warp == 0;
  acc_t row_prefix[VECTORS];
  if (looks_back) {
    cluster_wait();
    // Lane r (< CLUSTER): the aggregates of ranks 0..r-1 in order (has_lower:
    // r > 0); every lane: the super-tile aggregate.
    acc_t lower = f.identity();
    acc_t super_total = s_sub_totals[0];
#pragma unroll
    for (int r = 1; r < CLUSTER; ++r) {
      if (static_cast<int>(lane) == r) lower = super_total;
      super_total = f.combine(super_total, s_sub_totals[r]);
    }
    acc_t super_prefix = f.identity();
    if (super == 0) {
      if (lane == 0) status.publish(0, TILE_INCLUSIVE, super_total);
    } else {
      if (lane == 0) status.publish(super, TILE_AGGREGATE, super_total);
      super_prefix = warp_lookback_sparse<P::MAX_SLEEP_NS>(status, super, f);
      if (lane == 0) status.publish(super, TILE_INCLUSIVE, f.combine(super_prefix, super_total));
    }
    if (lane < static_cast<unsigned>(CLUSTER)) {
      // Rank 0 of super-tile 0 has no prefix: its value is never read.
      acc_t prefix = lower;
      if (super > 0) prefix = lane == 0 ? super_prefix : f.combine(super_prefix, lower);
      *cluster_map(s_prefix, lane) = prefix;
    }
  } else {
    (void)tile_row_prefixes<P>(f, lane, s, row_prefix);  // meanwhile: this warp's rows
    cluster_wait();
  }
  cluster_arrive();
  cluster_wait();
  if (looks_back) (void)tile_row_prefixes<P>(f, lane, s, row_prefix);

  // ---- C: every element = output(prefix . warp prefix . row prefix . own) ----
  acc_t head = warp_prefix;
  bool has_head = warp > 0;
  if (super > 0 || rank > 0) {
    head = has_head ? f.combine(*s_prefix, warp_prefix) : *s_prefix;
    has_head = true;
  }
  write_tile<P>(f, layout, lane, has_head, head, s, row_prefix, full && layout.vec_out, out, first, n);
}

}  // namespace tessera::gpu

namespace tessera::scan_impl {

// Enqueues the scan: zero the counter and the super-tiles' status slots, one
// cluster launch of super-tiles x CLUSTER CTAs. The workspace is
// LookbackScan<P, F>::workspace_bytes(n) bytes (one slot per sub-tile: more
// than the super-tiles need); n == 0 does nothing.
template <class P, int CLUSTER, class F>
void run_lookback_cluster(const char* kernel_name, const F& f, const typename F::in_t* in, typename F::out_t* out,
                          std::size_t n, bool exclusive, void* workspace, cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  const unsigned super_tiles = gpu::cluster_super_tiles(layout.tiles, CLUSTER);
  const unsigned grid = gpu::checked_grid(static_cast<std::size_t>(super_tiles) * CLUSTER, kernel_name, n);
  const std::size_t clear = L::COUNTER_BYTES + gpu::TileStatus<typename F::acc_t>::bytes(super_tiles);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, clear, stream));
  detail::launch_cluster(kernel_name, gpu::scan_lookback_cluster_kernel<P, CLUSTER, F>, dim3(grid),
                         dim3(P::THREADS), CLUSTER, 0, stream, n, in, out, layout, workspace, f);
}

}  // namespace tessera::scan_impl
