// The claim order of multi_tile_split (src/cuda/batched_scan/
// 06_multi_tile_resident.cu): rows too long for the GPU's shared memory,
// each cut into one segment of consecutive tiles per block. A block holds
// the last `held` tiles of its segment in its buffers until the row's
// carries are known and re-reads only the others, so a row of 10^7 samples
// on the H100 (931 tiles, 132 blocks, 7-8 tiles each) moves ~2.4 DRAM
// accesses per sample instead of the streamed rows' ~2.95.
//
// Block b's claims for each row, its segment being tiles [t0, t1) (S tiles,
// H = min(S, held) of them held):
//   count(t0 .. t1-H-1)    totals only; the buffer is free at once
//   fused(t1-H .. t1-1)    totals, then scanned from the same copy
//   scan(t1-H-1 .. t0)     a second copy, the tile counted last first
// Properties the kernel relies on, checked by the CPU tests:
//   - the segments cover the row's tiles once, their sizes differ by <= 1;
//   - every tile is counted or fused once and scanned or fused once;
//   - a block's counts and fused tiles of a row come before its scans of
//     it, so in a ring of more than `held` buffers no count or fused claim
//     waits for a buffer that waits for its own row's carries: every
//     block's share of a row's totals is in flight before any block waits
//     (no deadlock, given that every block of the grid is resident: the
//     kernel is launched cooperatively);
//   - with held < buffers, a row's first scan takes the buffer of a count,
//     so its copy is in flight while the block waits for the carries.
#pragma once

#include <cstdint>

#include "common/hd.hpp"

namespace tessera::batched_scan_impl {

struct SplitItem {
  enum Kind : std::uint8_t { count, fused, scan } kind;
  std::uint32_t tile;  // within the row
};

struct SplitOrder {
  std::uint32_t tiles, blocks, held;  // 1 <= blocks <= tiles; held >= 1; blocks == 0: not split

  // Segment b's first tile (segment `blocks`: the row's end).
  TESSERA_HD std::uint32_t first(std::uint32_t b) const {
    return static_cast<std::uint32_t>(std::uint64_t{b} * tiles / blocks);
  }
  TESSERA_HD std::uint32_t held_of(std::uint32_t b) const {
    const std::uint32_t S = first(b + 1) - first(b);
    return S < held ? S : held;
  }
  // Block b's claims per row.
  TESSERA_HD std::uint32_t claims(std::uint32_t b) const { return 2 * (first(b + 1) - first(b)) - held_of(b); }

  // Block b's claim o (< claims(b)) of a row.
  TESSERA_HD SplitItem at(std::uint32_t b, std::uint32_t o) const {
    const std::uint32_t t0 = first(b), t1 = first(b + 1), S = t1 - t0, H = held_of(b);
    if (o < S - H) return {SplitItem::count, t0 + o};
    if (o < S) return {SplitItem::fused, t0 + o};
    return {SplitItem::scan, t1 - H - 1 - (o - S)};
  }
};

}  // namespace tessera::batched_scan_impl
