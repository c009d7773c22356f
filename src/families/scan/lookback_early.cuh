// Step 9 refinement (lookback_bulk's fallback below sm_90; the lab's rows
// lookback_early_publish and lookback_early_publish_32k): the one-tile
// look-back kernel of lookback_tile.cuh reordered so that the tile's
// aggregate is published as soon as the tile is reduced, the look-back warp
// polls only the slots still missing, and the other warps do their local
// scan while it waits. Same data layout, fold, output formula, workspace and
// alignment rules as scan_lookback_kernel (lookback_tile.cuh documents them).
//
// ---- What bounds a decoupled look-back scan (float sum, n = 2^28, H100) ----
// Bytes: read n + write n = 2 GiB; at copy speed (3.0 TB/s) 0.716 ms, at the
// target 92% 0.778 ms.
// Tiles: T floats per tile -> 2^28 / T tiles. 32 KiB tiles (256 x 8 vectors,
//   T = 8192): 32768 tiles, 42 M tiles/s at 0.778 ms, 248 tiles per SM, so a
//   block (2 resident per SM) must finish a tile every 6.3 us. 48 KiB tiles
//   (256 x 12 vectors, T = 12288): 21846 tiles, 28 M tiles/s, 165 tiles per
//   SM, 9.4 us per block (2 per SM at ~100 registers).
// Bytes in flight (Little): 2.76 TB/s x ~1.5 us loaded DRAM latency ~ 4 MB,
//   31 KB per SM at all times: one 32 KiB tile per SM in flight is the bare
//   minimum, two blocks of 32 KiB leave no slack for any phase in which a
//   block issues no memory traffic.
// A block's life, one tile: launch + tile index (an L2 atomic round trip,
//   0.5-1 us, before any load can be issued) + loads (~1.5 us latency under
//   load, plus the tile's share of the SM's bandwidth) + fold/scan (~0.2 us)
//   + look-back + store issue (~0.3 us per 32 KiB). The look-back's critical
//   path per window is publish-visibility (a store reaching L2, ~0.3-0.5 us)
//   plus one poll round trip (~0.5-1 us): ~1 us. The inclusive frontier lags
//   a tile by the tiles taken while it loaded and looked back, ~2 us x the
//   tile rate: ~80 tiles at 32 KiB (3 windows of 32, ~2-3 us of look-back),
//   ~55 at 48 KiB (2 windows). So at 32 KiB the fixed latencies (~4-6 us) eat
//   almost the whole 6.3 us budget (the measured 77% of copy of
//   lookback_window32), while at 48 KiB (9.4 us budget, ~4-5 us of latency)
//   a block spends about half its life moving data: tile size x window must
//   cover the ~2 us of tiles taken meanwhile in <= 2 windows. (64 KiB tiles,
//   256 x 16, would halve the look-backs again but need > 128 registers and
//   spill with two blocks per SM.)
// Polling traffic: 264 waiting warps re-reading 256 B windows every ~0.1-0.3
//   us is ~0.2-0.7 TB/s of L2 requests concentrated on the ~2 KiB of status
//   lines in flight (a few L2 slices), the very lines the publishers write:
//   widening the window to 1 KiB cost 10 points. Hence the sparse re-poll
//   (tessera/blocks/lookback_sparse.cuh): one sector per missing slot.
//
// ---- What this kernel changes over scan_lookback_kernel ---------------------
//   1. The aggregate is published right after the loads land: thread total
//      (serial over its 4 x VECTORS elements), a 5-step warp butterfly, one
//      barrier, warp 0 combines the warp totals and publishes. The row scans
//      (VECTORS warp scans per warp) no longer stand between the data and the
//      publication, so successors wait less. (The aggregate cannot go out
//      before the block's own loads complete: it is their sum.) The thread
//      total folds rows out of element order: valid for the registry's ops
//      (sum, min, max: commutative); float sums round differently from the
//      row-scan total by a few ulps of the tile sum, inside the tolerance.
//   2. While warp 0 looks back, warps 1..W-1 compute their row scans and warp
//      prefixes, then wait at the one remaining barrier with nothing to store
//      (each output needs the tile prefix; storing partial sums and fixing
//      them up would double the write traffic). Warp 0 does its own row scans
//      after the barrier, while the other warps already store.
//   3. The look-back polls only missing slots (lookback_sparse.cuh).
//   3b. The tile-index atomic's round trip (0.5-1 us before any load) is
//      overlapped with an L2 prefetch of tile blockIdx.x, which the counter
//      nearly always hands to this block or one starting at the same moment;
//      the counter still decides (deadlock freedom unchanged).
//   4. Output stores are st.global.cs (evict-first): the 1 GiB output stream
//      does not push the status lines and the next tiles' input out of L2.
//   Unchanged: 16-byte loads of the whole tile issued up front into
//   registers; the 8-byte packed {flag, value} status word for 4-byte states
//   (one 64-bit relaxed store / load, never torn); the tile index from the
//   atomic counter (deadlock-free whatever the block scheduling; CUB uses
//   blockIdx.x instead and saves the atomic's round trip: here 3b hides it).
// Expected (float sum 2^28, % of copy): 256 x 12 vectors (48 KiB tiles) 84-92%;
// 256 x 8 (32 KiB) 78-82%, i.e. the gain of steps 1-4 alone over window32.
//
// Types: 4-byte elements with the native accumulator, ops sum/min/max (the
// registry's four_byte_native set); user operators stay on lookback_tile.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_sparse.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/prefetch.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::gpu {

template <class P, class F>
__global__ __launch_bounds__(P::THREADS, P::MIN_BLOCKS) void scan_lookback_early_kernel(const typename F::in_t* in,
                                                                                        typename F::out_t* out,
                                                                                        ScanLayout layout,
                                                                                        void* workspace, F f) {
  using L = LookbackScan<P, F>;
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  static_assert(vectorizable16<in_t> && std::is_same_v<in_t, acc_t>, "4-byte-class native scans only");
  constexpr int VECTORS = P::VECTORS;
  constexpr int VEC = L::VEC;
  constexpr int WARPS = P::THREADS / 32;

  __shared__ unsigned s_tile;
  __shared__ alignas(16) unsigned char s_raw[sizeof(acc_t) * (WARPS + 1)];
  acc_t* s_warp_totals = reinterpret_cast<acc_t*>(s_raw);
  acc_t* s_tile_prefix = s_warp_totals + WARPS;

  const unsigned lane = lane_index();
  const unsigned warp = threadIdx.x / 32;
  const long long n = static_cast<long long>(layout.n);
  const long long thread_offset = static_cast<long long>(warp) * L::WARP_ITEMS + static_cast<long long>(lane) * VEC;

  // The tile index is an L2 atomic round trip away; meanwhile, prefetch into
  // L2 the tile this block would get if the counter followed blockIdx.x (it
  // nearly does: blocks start in index order). Whoever gets that tile loads
  // it moments later, so the prefetch is never wasted DRAM traffic (every
  // tile is prefetched once, by block `tile`), and the block's own loads
  // mostly hit lines already on their way. Full tiles only: every address
  // prefetched lies inside the input.
  {
    const long long guess = static_cast<long long>(blockIdx.x) * static_cast<long long>(L::TILE_ITEMS) - layout.shift;
    if (guess >= 0 && guess + static_cast<long long>(L::TILE_ITEMS) <= n) {
#pragma unroll
      for (int k = 0; k < VECTORS; ++k) prefetch_l2(in + guess + thread_offset + k * 32 * VEC);
    }
  }

  unsigned char* ws = static_cast<unsigned char*>(workspace);
  const TileStatus<acc_t> status(ws + L::COUNTER_BYTES, layout.tiles);
  const unsigned tile = take_tile_index(reinterpret_cast<unsigned*>(ws), s_tile);
  const long long begin = static_cast<long long>(tile) * static_cast<long long>(L::TILE_ITEMS) - layout.shift;
  const long long first = begin + thread_offset;
  const bool full = begin >= 0 && begin + static_cast<long long>(L::TILE_ITEMS) <= n;

  // ---- load (all vectors issued before the first use) and fold -------------
  acc_t s[VECTORS][VEC];
  if (full && layout.vec_in) {
    in_t x[VECTORS][VEC];
#pragma unroll
    for (int k = 0; k < VECTORS; ++k) load_vec16<CacheHint::normal>(in + first + k * 32 * VEC, x[k]);
    fold_tile_vectors<P>(f, x, s);
  } else {
    fold_tile_scalar<P>(f, in, first, n, s);
  }

  // ---- the tile aggregate first: thread total, warp butterfly, one barrier --
  acc_t thread_total = s[0][VEC - 1];
#pragma unroll
  for (int k = 1; k < VECTORS; ++k) thread_total = f.combine(thread_total, s[k][VEC - 1]);
  const acc_t warp_total = warp_reduce_in_order(thread_total, f);
  if (lane == 0) s_warp_totals[warp] = warp_total;
  __syncthreads();

  acc_t row_prefix[VECTORS];
  acc_t tile_total;
  const acc_t warp_prefix = warp_prefix_from_totals<P::THREADS>(s_warp_totals, f, tile_total);
  if (warp == 0) {
    // Publish at once, then look back (tile 0 publishes its inclusive prefix).
    if (tile == 0) {
      if (lane == 0) status.publish(0, TILE_INCLUSIVE, tile_total);
    } else {
      if (lane == 0) status.publish(tile, TILE_AGGREGATE, tile_total);
      const acc_t tile_prefix = warp_lookback_sparse<P::MAX_SLEEP_NS>(status, tile, f);
      if (lane == 0) {
        status.publish(tile, TILE_INCLUSIVE, f.combine(tile_prefix, tile_total));
        *s_tile_prefix = tile_prefix;
      }
    }
  } else {
    (void)tile_row_prefixes<P>(f, lane, s, row_prefix);  // meanwhile: this warp's rows
  }
  __syncthreads();
  if (warp == 0) (void)tile_row_prefixes<P>(f, lane, s, row_prefix);

  acc_t head = warp_prefix;
  bool has_head = warp > 0;
  if (tile > 0) {
    head = has_head ? f.combine(*s_tile_prefix, warp_prefix) : *s_tile_prefix;
    has_head = true;
  }
  write_tile<P>(f, layout, lane, has_head, head, s, row_prefix, full && layout.vec_out, out, first, n);
}

}  // namespace tessera::gpu

namespace tessera::scan_impl {

// Enqueues the scan: zero the counter and status slots, one kernel. The
// workspace is LookbackScan<P, F>::workspace_bytes(n) bytes; n == 0 does
// nothing.
template <class P, class F>
void run_lookback_early(const char* kernel_name, const F& f, const typename F::in_t* in, typename F::out_t* out,
                        std::size_t n, bool exclusive, void* workspace, cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  const unsigned grid = gpu::checked_grid(layout.tiles, kernel_name, n);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, L::clear_bytes(layout), stream));
  detail::launch(kernel_name, gpu::scan_lookback_early_kernel<P, F>, dim3(grid), dim3(P::THREADS), 0, stream, n, in,
                 out, layout, workspace, f);
}

}  // namespace tessera::scan_impl
