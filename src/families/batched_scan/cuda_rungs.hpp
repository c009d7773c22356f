// The CUDA rungs of the batched_scan ladder (steps 2-8). Each rung provides
//   run_X(call)        enqueue the scan on call.stream (no allocation, no
//                      host synchronisation: graph-capturable);
//   ws_X(spec)         workspace bytes run_X needs;
//   supports_X(spec)   whether the rung handles the spec (shape, accumulator).
// ladder.cpp turns them into the ScanVariant table. Plain C++: no CUDA
// headers needed to include this (policy.hpp reads the length limits).
#pragma once

#include <cstddef>

#include "families/batched_scan/contract.hpp"

namespace tessera::batched_scan_impl {

// The tile of tessera's rungs (steps 5 and 6): BLOCK threads x ITEMS
// consecutive samples each, staged through shared memory.
// - ITEMS % 8 == 4: thread t reads its items as float4s at word t * ITEMS;
//   the 8 threads of one shared-memory phase then start on 8 distinct
//   16-byte bank groups (ITEMS / 4 odd): conflict-free;
// - TILE = 10,752 covers the seismic LEN = 10,000 (+3 for the alignment
//   shift of a row's first sample) in one block: rows of that size are read
//   once and written once (the fused rung);
// - 384 threads leave 170 registers per thread at one block per SM, enough
//   for 28 double-float states plus the samples (no spills, see
//   -DTESSERA_PTXAS_VERBOSE=ON), and 42 KB of static shared memory lets two
//   float blocks share an SM.
struct TilePolicy {
  static constexpr int BLOCK = 384;
  static constexpr int ITEMS = 28;
  static constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK) * ITEMS;
};
static_assert(TilePolicy::BLOCK % 32 == 0 && TilePolicy::BLOCK <= 1024, "whole warps");
static_assert(TilePolicy::ITEMS % 8 == 4, "float4 item reads conflict-free");
static_assert(TilePolicy::TILE >= 10000 + 3, "the seismic trace length fits one tile");

// Rows up to SHORT_ROW_MAX_LEN share warps (step 7: 4 samples per lane, at
// most 32 lanes per row); up to FUSED_MAX_LEN they go to the fused one-pass
// kernel (one tile, minus 3 for the alignment shift of the row's first
// sample); longer rows to the multi-tile path.
inline constexpr std::size_t SHORT_ROW_MAX_LEN = 128;
// The 8-byte accumulators' lanes take 8 samples each (07_short_rows.cu):
// their rows of up to 256 samples fit one warp.
inline constexpr std::size_t SHORT_ROW_MAX_LEN_WIDE = 256;
inline std::size_t short_row_max_len(Accum a) {
  return a == Accum::native ? SHORT_ROW_MAX_LEN : SHORT_ROW_MAX_LEN_WIDE;
}
inline constexpr std::size_t FUSED_MAX_LEN = TilePolicy::TILE - 3;
// fused_fitted cuts the fused tile to the row: its largest tile (384 x 20)
// holds rows of up to this many samples.
inline constexpr std::size_t FITTED_MAX_LEN = 384 * 20 - 3;

// multi_tile_resident keeps a row's tiles in shared memory until the row has
// landed: RESIDENT_BUFFERS tiles per SM, and rows of at most half of what
// the GPU holds (a margin for SMs shared with other work); longer rows run
// multi_tile.
inline constexpr int RESIDENT_BUFFERS = 5;
// 512 tiles keep the samples after a tile (the exact multipliers of
// multi_tile_resident_self's carries, row_carries.cuh) below 2^24.
inline constexpr std::size_t RESIDENT_MAX_ROW_TILES = 512;
inline std::size_t resident_max_row_tiles(int sms) {
  const std::size_t half = static_cast<std::size_t>(sms) * RESIDENT_BUFFERS / 2;
  return half < RESIDENT_MAX_ROW_TILES ? half : RESIDENT_MAX_ROW_TILES;
}

// Tiles a row of `len` samples spans, whatever its alignment (an upper bound:
// a row's last tile may be empty).
inline std::size_t tiles_per_row(std::size_t len) { return (len + 3 + TilePolicy::TILE - 1) / TilePolicy::TILE; }

// Bytes of one accumulator state (the long-row rungs' workspace).
std::size_t acc_bytes(Accum a);

// The ladder's CUDA rows (ladder.cpp): seed 002's rungs, the variants the API
// picks (policy.hpp), the vendor baseline.
TESSERA_BSCAN_DECLARE_RUNG(smem_v0_bank_conflicts)
TESSERA_BSCAN_DECLARE_RUNG(smem_v0_padded)
TESSERA_BSCAN_DECLARE_RUNG(smem_v1)
TESSERA_BSCAN_DECLARE_RUNG(warp_v0)
TESSERA_BSCAN_DECLARE_RUNG(fused_one_pass)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_bulk)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_lazy_bulk)
TESSERA_BSCAN_DECLARE_RUNG(fused_fitted)
TESSERA_BSCAN_DECLARE_RUNG(multi_tile_resident_self)
TESSERA_BSCAN_DECLARE_RUNG(short_rows)
TESSERA_BSCAN_DECLARE_RUNG(cub_scan_by_key)
// The long-row paths multi_tile_resident_self runs inside (rows past its
// capacity: streamed or chained through multi_tile_resident's kernel; below
// sm_90: the three-launch rungs), each also callable alone: the lab
// (lab/batched_scan/) registers them as rows of their own.
TESSERA_BSCAN_DECLARE_RUNG(multi_tile)
TESSERA_BSCAN_DECLARE_RUNG(multi_tile_occupancy)
TESSERA_BSCAN_DECLARE_RUNG(multi_tile_pipelined)
TESSERA_BSCAN_DECLARE_RUNG(multi_tile_resident)
TESSERA_BSCAN_DECLARE_RUNG(multi_tile_streamed)

}  // namespace tessera::batched_scan_impl
