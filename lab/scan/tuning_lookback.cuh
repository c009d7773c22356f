// The scan ladder's step-9 tuning table: every look-back policy the H100
// measured and the product does not run, one entry each (kernel template x
// policy), with the measurement that rejected it. tuning_rows.cu turns the
// table into the lab's ladder rows (`tessera-lab bench scan` times them next
// to the product's `lookback` and `lookback_bulk`).
//
// Unless an entry says otherwise: NVIDIA H100 80GB HBM3, float sum, 2^28
// elements, % of the copy bandwidth and speed-up over cub_device_scan (81.8%),
// all rows in one run: docs/results/scan-bulk-h100-2026-11-23.txt (5d4c58e;
// re-run in docs/results/scan-recheck-h100-2026-11-23.txt, cec91ed: every row
// within 0.5 point but persistent_large, +1.3). The product in that run:
// lookback 55.3%, lookback_bulk 92.1%.
// Every row takes 4-byte elements with the native accumulator only (float,
// int32, uint32; sum, min, max).
#pragma once

#include <tuple>

#include "families/scan/lookback_rows.cuh"
#include "lookback_persistent.cuh"

namespace tessera::lab::scan_tuning {

using gpu::CacheHint;
using gpu::LookbackPolicy;
using scan_impl::BulkLookback;
using scan_impl::EarlyPublishLookback;
using scan_impl::OneTileLookback;
using scan_impl::PersistentLookback;

// ---- the one-tile kernel (lookback_tile.cuh), after the first bench ---------

// 68.2%, 0.83x. Twice lookback's tile (16 -> 32 floats per thread) halves the
// look-backs: +13 points, so the cost is per tile, not per byte. The base the
// next five rows each change one thing of (a63697c); beaten by window32.
struct LargeTiles {
  static constexpr const char* name = "lookback_large_tiles";
  static constexpr const char* adds = "lookback with 32 floats per thread (8 vectors, 32 KiB tiles): half the tiles and look-backs, 2 blocks per SM; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<256, 8, 4, 2>>;
};

// 54.6%, 0.67x: no better than lookback; fewer idle threads per waiting block
// do not help when the wait is the look-back's latency.
struct SmallBlocks {
  static constexpr const char* name = "lookback_small_blocks";
  static constexpr const char* adds = "lookback with 128-thread blocks (8 KiB tiles), up to 8 per SM: less of the SM idles behind a look-back; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<128, 4, 4, 8>>;
};

// 77.8%, 0.95x (predicted 70-74%). A 32-slot window (256 B per poll instead
// of 1 KiB) is worth +10 points over large_tiles: every waiting warp polls
// the same few L2 lines the publishers write. The API's pick for 4-byte
// native scans from cc8d736 to 945c4b8; superseded by early_publish.
struct Window32 {
  static constexpr const char* name = "lookback_window32";
  static constexpr const char* adds = "lookback_large_tiles with 1 status slot per lane: 32 predecessors (256 B) per poll, less L2 contention per round; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<256, 8, 1, 2>>;
};

// 71.0%, 0.87x (predicted 70-74%): between the 128- and 32-slot windows.
struct Window64 {
  static constexpr const char* name = "lookback_window64";
  static constexpr const char* adds = "lookback_large_tiles with 2 status slots per lane: 64 predecessors (512 B) per poll; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<256, 8, 2, 2>>;
};

// 67.3%, 0.82x (predicted 68-72%): within a point of large_tiles, so the
// 32-256 ns back-off costs nothing; the back-off stays.
struct NoBackoff {
  static constexpr const char* name = "lookback_no_backoff";
  static constexpr const char* adds = "lookback_large_tiles without the __nanosleep back-off: waiting warps re-poll at once; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<256, 8, 4, 2, CacheHint::normal, 0>>;
};

// 65.3%, 0.80x (predicted 72-78%): CUB's sm_90 block shape (~384 threads x
// 12-17 items) does not carry over to a register-resident tile.
struct Threads384 {
  static constexpr const char* name = "lookback_384_threads";
  static constexpr const char* adds = "384 threads x 6 vectors (24 floats per thread, 36 KiB tiles), 2 blocks per SM, 64-wide window: CUB-like tile shape, 72 KiB of loads in flight per SM; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<384, 6, 2, 2>>;
};

// 60.4%, 0.74x (predicted 68-74%): more warps per block do not hide the
// look-back warp; bigger blocks were dropped.
struct Threads512 {
  static constexpr const char* name = "lookback_512_threads";
  static constexpr const char* adds = "512 threads x 4 vectors (32 KiB tiles), 2 blocks per SM, 64-wide window: more warps per block hide the look-back warp; 4-byte native scans only";
  using Kernel = OneTileLookback<LookbackPolicy<512, 4, 2, 2>>;
};

// ---- the persistent, register-prefetching kernel (b7e01d0) ------------------

// 31.2%, 0.38x (predicted 85-92%): the prefetched tile's aggregate goes out
// late and the delays convoy (lookback_persistent.cuh).
struct Persistent {
  static constexpr const char* name = "lookback_persistent";
  static constexpr const char* adds = "persistent, pipelined look-back: grid = resident blocks, each loops over tiles from the counter and loads its next tile before looking back, so reads never stop behind a look-back; 256 x 4 vectors, 3 blocks per SM; 4-byte native scans only";
  using Kernel = PersistentLookback<LookbackPolicy<256, 4, 2, 3>>;
};

// 50.5%, 0.62x (predicted 85-90%): larger tiles convoy less, still far behind.
struct PersistentLarge {
  static constexpr const char* name = "lookback_persistent_large";
  static constexpr const char* adds = "lookback_persistent with 32 KiB tiles (256 x 8 vectors), 2 blocks per SM; 4-byte native scans only";
  using Kernel = PersistentLookback<LookbackPolicy<256, 8, 2, 2>>;
};

// ---- the early-publishing kernel (lookback_early.cuh, a5d84e6) --------------

// 84.0%, 1.03x (predicted 84-92%; 84.5% in docs/results/scan-h100-2026-11-23b.txt).
// The API's pick for 4-byte native scans from 945c4b8 until lookback_bulk
// (5d4c58e, +8 points); its kernel and this policy stay in the product as
// lookback_bulk's fallback below sm_90 (lookback_rows.cuh, BulkFallback).
struct EarlyPublish {
  static constexpr const char* name = "lookback_early_publish";
  static constexpr const char* adds = "lookback_window32 reordered: the tile aggregate published right after the loads land (thread total + warp butterfly, before the row scans), only missing status slots re-polled, the other warps scan their rows during the look-back, st.global.cs output; 256 x 12 vectors (48 KiB tiles), 2 blocks per SM; 4-byte native scans only";
  using Kernel = EarlyPublishLookback<LookbackPolicy<256, 12, 1, 2, CacheHint::streaming>>;
};

// 83.9%, 1.03x (predicted 78-82%): the kernel's changes alone, on
// window32's 32 KiB tiles, are worth +6 points; 48 KiB tiles add at most one.
struct EarlyPublish32k {
  static constexpr const char* name = "lookback_early_publish_32k";
  static constexpr const char* adds = "lookback_early_publish with 32 KiB tiles (256 x 8 vectors, lookback_window32's shape): the kernel changes alone; 4-byte native scans only";
  using Kernel = EarlyPublishLookback<LookbackPolicy<256, 8, 1, 2, CacheHint::streaming>>;
};

// ---- the warp-specialised kernel (lookback_bulk.cuh, 5d4c58e) ---------------

// 85.2%, 1.04x against lookback_bulk's 92.1% (predicted within 2 points):
// even with every aggregate out early, 1 KiB polls contend with the
// publishers on the few status lines in flight.
struct BulkWindow128 {
  static constexpr const char* name = "lookback_bulk_window128";
  static constexpr const char* adds = "lookback_bulk with the look-back warp reading 128 predecessors per round trip (4 slots per lane); 4-byte native scans only";
  using Kernel = BulkLookback<4>;
};

// The table, in the order `tessera-lab list scan` shows it.
using Table = std::tuple<LargeTiles, SmallBlocks, Window32, Window64, NoBackoff, Threads384, Threads512, Persistent,
                         PersistentLarge, EarlyPublish, EarlyPublish32k, BulkWindow128>;

}  // namespace tessera::lab::scan_tuning
