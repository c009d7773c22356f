// Step 9 refinement (the row lookback_bulk; the lab's lookback_bulk_window128):
// the decoupled look-back scan with warp-specialised, persistent blocks and
// tiles moved by the bulk copy engine (TMA).
//
// What limited lookback_early_publish (84% of copy on the H100,
// lookback_early.cuh works out the budget): each block owns one tile at a
// time, so its loads stop while it looks back, and its aggregate goes out
// only once its own loads have landed and been folded; a tile's whole life
// (index, loads, fold, look-back, stores) is serial. lookback_persistent
// pipelined the loads but published a prefetched tile's aggregate only when
// the block got to it, and the delays compounded (31% of copy).
//
// Here one block per SM keeps NBUF tiles in flight and splits the work of a
// tile across warps that never wait for each other except through per-buffer
// mbarriers (tessera/blocks/mbarrier.cuh):
//   - producer warp (lane 0): takes the next tile index from the counter as
//     soon as a buffer is free and starts one bulk copy of the whole tile
//     into it (partial tiles at the ends are read by the others from global
//     memory instead);
//   - aggregator warp: as soon as a tile lands, sums it from shared memory
//     (4 independent chains per lane) and publishes its aggregate (tile 0:
//     its inclusive prefix). Every claimed tile's aggregate goes out one load
//     latency plus ~0.3 us after the claim, whatever the rest of its block is
//     doing: the property decoupled look-back relies on and the persistent
//     kernel lost;
//   - look-back warp: for each tile in order, once its aggregate is out,
//     looks back (PER_LANE status slots per lane; 1: lookback_sparse's
//     re-poll of missing slots only), publishes the inclusive prefix and
//     hands the exclusive prefix to the consumers;
//   - consumer warps (P::THREADS threads): fold the tile from shared memory
//     into registers (lookback_tile.cuh's layout: conflict-free 16-byte
//     reads), release the buffer to the producer, scan rows and warps, add
//     the tile prefix and store from registers (st.global.cs).
// The consumers never look back; by the time they reach a tile its prefix
// has usually been known for a while (the look-back warp runs up to NBUF - 1
// tiles ahead of them).
//
// Deadlock freedom: tiles are claimed in counter order by running blocks
// only, and the bulk copy starts at the claim; a tile's aggregate then
// depends on nothing but its own copy, so every look-back finishes. The
// consumers wait on their own block's warps only.
//
// Memory order: the producer writes a buffer's tile index before arriving on
// its `full` barrier; the aggregator publishes the aggregate before arriving
// on `total_ready`, which the look-back warp waits on before publishing the
// inclusive prefix to the same status slot (release / acquire at CTA scope:
// the inclusive store is later in the slot's coherence order).
//
// Budget (float sum 2^28, H100, 48 KiB tiles): at 92% of copy each SM takes
// a tile every ~2.2 us, so each role must finish its share of a tile within
// that: aggregation ~0.3-0.5 us, a look-back ~1-2 us, the consumers' fold,
// scans and stores ~1 us. 4 buffers of 48 KiB (192 KiB of shared memory)
// keep 3 tiles (144 KiB) of loads in flight per SM where ~31 KiB suffice.
//
// Types: 4-byte elements with the native accumulator, ops sum/min/max (the
// aggregator folds out of order: commutative operators only).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/device.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_sparse.cuh"
#include "tessera/blocks/mbarrier.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::gpu {

// Warps besides the consumers: producer, aggregator, look-back.
constexpr int BULK_SCAN_ROLE_WARPS = 3;

template <class P, int NBUF>
constexpr std::size_t bulk_scan_smem_bytes() {
  return static_cast<std::size_t>(NBUF) * static_cast<std::size_t>(P::THREADS) * P::VECTORS * 16;
}

template <class P, int NBUF, int PER_LANE, class F>
__global__ __launch_bounds__(P::THREADS + 32 * BULK_SCAN_ROLE_WARPS, 1) void scan_lookback_bulk_kernel(
    const typename F::in_t* in, typename F::out_t* out, ScanLayout layout, void* workspace, F f) {
#if TESSERA_MBARRIER
  using L = LookbackScan<P, F>;
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  static_assert(vectorizable16<in_t> && std::is_same_v<in_t, acc_t> && sizeof(in_t) == 4,
                "4-byte native scans only");
  constexpr int VECTORS = P::VECTORS;
  constexpr int VEC = L::VEC;
  constexpr int WARPS = P::THREADS / 32;  // consumer warps: 0 .. WARPS - 1
  constexpr int PRODUCER = WARPS, AGGREGATOR = WARPS + 1, LOOKBACK = WARPS + 2;
  constexpr long long TILE = static_cast<long long>(L::TILE_ITEMS);
  constexpr unsigned TILE_BYTES = static_cast<unsigned>(L::TILE_ITEMS * sizeof(in_t));

  extern __shared__ __align__(128) unsigned char s_dynamic[];
  in_t* s_tiles = reinterpret_cast<in_t*>(s_dynamic);  // NBUF tiles
  __shared__ std::uint64_t full[NBUF], empty[NBUF], total_ready[NBUF], prefix_ready[NBUF];
  __shared__ unsigned s_tile[NBUF];
  __shared__ acc_t s_total[NBUF], s_prefix[NBUF];
  __shared__ acc_t s_warp_totals[2][WARPS];  // by iteration parity (see the consumers)

  if (threadIdx.x == 0) {
    for (int b = 0; b < NBUF; ++b) {
      mbar_init(&full[b], 1);          // the producer (+ the bulk copy's bytes)
      mbar_init(&empty[b], 2);         // consumers, aggregator: done reading
      mbar_init(&total_ready[b], 1);   // aggregator
      mbar_init(&prefix_ready[b], 1);  // look-back warp
    }
    mbar_init_fence();
  }
  __syncthreads();  // the only block-wide barrier

  unsigned char* ws = static_cast<unsigned char*>(workspace);
  const TileStatus<acc_t> status(ws + L::COUNTER_BYTES, layout.tiles);
  const unsigned warp = threadIdx.x / 32;
  const unsigned lane = lane_index();
  const long long n = static_cast<long long>(layout.n);
  auto tile_begin = [&](unsigned t) { return static_cast<long long>(t) * TILE - layout.shift; };
  // Whole tile inside the input and 16-byte aligned: one bulk copy.
  auto bulk_tile = [&](unsigned t) {
    const long long b = tile_begin(t);
    return layout.vec_in && b >= 0 && b + TILE <= n;
  };

  if (warp == PRODUCER) {
    if (lane == 0) {
      unsigned* counter = reinterpret_cast<unsigned*>(ws);
      for (unsigned i = 0;; ++i) {
        const unsigned b = i % NBUF;
        if (i >= NBUF) mbar_wait(&empty[b], (i / NBUF - 1) & 1u);
        const unsigned t = atomicAdd(counter, 1u);
        s_tile[b] = t;  // >= tiles: the end, for every role
        if (t < layout.tiles && bulk_tile(t)) {
          mbar_arrive_expect_tx(&full[b], TILE_BYTES);
          bulk_copy_to_shared(s_tiles + b * TILE, in + tile_begin(t), TILE_BYTES, &full[b]);
        } else {
          mbar_arrive(&full[b]);
        }
        if (t >= layout.tiles) break;
      }
    }
    return;
  }

  if (warp == AGGREGATOR) {
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % NBUF, parity = (i / NBUF) & 1u;
      mbar_wait(&full[b], parity);
      const unsigned t = s_tile[b];
      if (t >= layout.tiles) {
        if (lane == 0) mbar_arrive(&total_ready[b]);
        break;
      }
      acc_t part[4] = {f.identity(), f.identity(), f.identity(), f.identity()};
      if (bulk_tile(t)) {
        const float4* v = reinterpret_cast<const float4*>(s_tiles + b * TILE);
        constexpr int PER_LANE_VECTORS = static_cast<int>(TILE / 4 / 32);
        static_assert(PER_LANE_VECTORS % 4 == 0, "4 chains of whole vectors");
#pragma unroll 4
        for (int m = 0; m < PER_LANE_VECTORS; ++m) {
          const float4 q = v[m * 32 + static_cast<int>(lane)];
          in_t e[4];
          memcpy(e, &q, sizeof(q));
          acc_t& c = part[m % 4];
          c = f.combine(c, f.combine(f.combine(f.lift(e[0]), f.lift(e[1])), f.combine(f.lift(e[2]), f.lift(e[3]))));
        }
      } else {
        const long long begin = tile_begin(t);
        for (long long k = lane; k < TILE; k += 32) {
          const long long e = begin + k;
          if (e >= 0 && e < n) part[0] = f.combine(part[0], f.lift(in[e]));
        }
      }
      const acc_t mine = f.combine(f.combine(part[0], part[1]), f.combine(part[2], part[3]));
      const acc_t total = warp_reduce_in_order(mine, f);
      __syncwarp();  // every lane's reads of the buffer are done
      if (lane == 0) {
        status.publish(t, t == 0 ? TILE_INCLUSIVE : TILE_AGGREGATE, total);
        s_total[b] = total;
        mbar_arrive(&empty[b]);
        mbar_arrive(&total_ready[b]);
      }
    }
    return;
  }

  if (warp == LOOKBACK) {
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % NBUF, parity = (i / NBUF) & 1u;
      mbar_wait(&total_ready[b], parity);
      const unsigned t = s_tile[b];
      if (t < layout.tiles && t > 0) {
        acc_t prefix;
        if constexpr (PER_LANE == 1) prefix = warp_lookback_sparse<P::MAX_SLEEP_NS>(status, t, f);
        else prefix = warp_lookback<PER_LANE, P::MAX_SLEEP_NS>(status, t, f);
        if (lane == 0) {
          status.publish(t, TILE_INCLUSIVE, f.combine(prefix, s_total[b]));
          s_prefix[b] = prefix;
        }
      }
      __syncwarp();
      if (lane == 0) mbar_arrive(&prefix_ready[b]);
      if (t >= layout.tiles) break;
    }
    return;
  }

  // ---- consumers ---------------------------------------------------------------
  const long long thread_offset = static_cast<long long>(warp) * L::WARP_ITEMS + static_cast<long long>(lane) * VEC;
  for (unsigned i = 0;; ++i) {
    const unsigned b = i % NBUF, parity = (i / NBUF) & 1u;
    mbar_wait(&full[b], parity);
    const unsigned t = s_tile[b];
    if (t >= layout.tiles) break;
    const long long begin = tile_begin(t);
    const long long first = begin + thread_offset;
    const bool whole = bulk_tile(t);
    acc_t s[VECTORS][VEC];
    if (whole) {
      in_t x[VECTORS][VEC];
      const in_t* src = s_tiles + b * TILE + thread_offset;
#pragma unroll
      for (int k = 0; k < VECTORS; ++k) {
        const float4 q = *reinterpret_cast<const float4*>(src + k * 32 * VEC);
        memcpy(x[k], &q, sizeof(q));
      }
      fold_tile_vectors<P>(f, x, s);
    } else {
      fold_tile_scalar<P>(f, in, first, n, s);
    }
    mbar_wait(&prefix_ready[b], parity);
    const acc_t tile_prefix = s_prefix[b];  // meaningful for t > 0
    acc_t row_prefix[VECTORS];
    const acc_t warp_total = tile_row_prefixes<P>(f, lane, s, row_prefix);
    // s_warp_totals alternates by iteration: a warp writing iteration i + 2's
    // totals has passed iteration i + 1's barrier, which every warp reaches
    // only after reading iteration i's.
    acc_t* totals = s_warp_totals[i & 1u];
    if (lane == 0) totals[warp] = warp_total;
    asm volatile("bar.sync 1, %0;\n" ::"r"(P::THREADS) : "memory");  // consumers only
    if (threadIdx.x == 0) mbar_arrive(&empty[b]);  // every consumer has read the buffer and the prefix
    acc_t tile_total;
    const acc_t warp_prefix = warp_prefix_from_totals<P::THREADS>(totals, f, tile_total);
    acc_t head = warp_prefix;
    bool has_head = warp > 0;
    if (t > 0) {
      head = has_head ? f.combine(tile_prefix, warp_prefix) : tile_prefix;
      has_head = true;
    }
    write_tile<P>(f, layout, lane, has_head, head, s, row_prefix, whole && layout.vec_out, out, first, n);
  }
#else
  (void)in, (void)out, (void)layout, (void)workspace, (void)f;
  __trap();  // sm_90+ only: the host never launches it elsewhere
#endif
}

}  // namespace tessera::gpu

namespace tessera::scan_impl {

// Enqueues the scan: zero the counter and status slots, one persistent
// launch (a block per SM, capped by the tile count). The workspace is
// LookbackScan<P, F>::workspace_bytes(n) bytes; n == 0 does nothing.
template <class P, int NBUF, int PER_LANE, class F>
void run_lookback_bulk(const char* kernel_name, const F& f, const typename F::in_t* in, typename F::out_t* out,
                       std::size_t n, bool exclusive, void* workspace, cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  auto kernel = gpu::scan_lookback_bulk_kernel<P, NBUF, PER_LANE, F>;
  constexpr std::size_t smem = gpu::bulk_scan_smem_bytes<P, NBUF>();
  TESSERA_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  const auto sms = static_cast<std::size_t>(gpu::sm_count());  // one persistent block per SM
  const std::size_t blocks = layout.tiles < sms ? layout.tiles : sms;
  const unsigned grid = gpu::checked_grid(blocks, kernel_name, n);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, L::clear_bytes(layout), stream));
  detail::launch(kernel_name, kernel, dim3(grid), dim3(P::THREADS + 32 * gpu::BULK_SCAN_ROLE_WARPS), smem, stream, n,
                 in, out, layout, workspace, f);
}

}  // namespace tessera::scan_impl
