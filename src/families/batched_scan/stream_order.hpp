// The claim order of multi_tile_streamed (06_multi_tile_resident.cu; the
// product's path for forward_backward rows past the resident capacity): rows
// too long for the GPU's shared memory are read twice, once to count each
// tile (its totals) and once to scan it with the row's carries, and the order
// of the two reads decides how many of the second come from L2 instead of
// DRAM.
//
// Claims, for rows of T tiles and a lead of D <= T tiles:
//   prologue    count(0, 0 .. T-1), count(1, 0 .. D-1)
//   phase r     scan(r, T-1 .. 0) alternating with T counts:
//               count(r+1, D .. T-1) then count(r+2, 0 .. D-1)
// (Running a phase's scans before its counts measured slower: 41-42% of
// copy against 44-45% for 10 x 10^7 floats on the H100; the consumers idle
// through the counts.) Properties the kernel relies on, checked by the CPU
// tests:
//   - every tile of every row is counted once and scanned once;
//   - all counts of row r are claimed before any scan of row r (a scan waits
//     for its row's carries, which need every count: claimed earlier, so in
//     flight, so no scan can block them: no deadlock);
//   - a row is scanned last tile first: the tiles counted last are re-read
//     first, while they are still in L2;
//   - D counts of the row after come between a row's last count and its
//     first scan: the time its carries take.
// Claims of rows past the batch (the last phases' counts) are skipped.
#pragma once

#include <cstdint>

#include "tessera/blocks/hd.hpp"

namespace tessera::batched_scan_impl {

struct StreamItem {
  enum Kind : std::uint8_t { count, scan, skip, end } kind;
  std::uint32_t row, tile;
};

struct StreamOrder {
  std::uint32_t rows, tiles, lead;  // lead <= tiles

  TESSERA_HD std::uint64_t claims() const {
    return std::uint64_t{tiles} + lead + 2ull * tiles * rows;
  }

  TESSERA_HD StreamItem at(std::uint32_t q) const {
    const std::uint32_t T = tiles, D = lead;
    if (q < T) return item(StreamItem::count, 0, q);
    if (q < T + D) return item(StreamItem::count, 1, q - T);
    const std::uint32_t p = q - T - D, r = p / (2 * T), o = p - r * (2 * T);
    if (r >= rows) return {StreamItem::end, 0, 0};
    if (o % 2 == 0) return item(StreamItem::scan, r, T - 1 - o / 2);
    const std::uint32_t c = o / 2;  // the phase's c-th count
    return c < T - D ? item(StreamItem::count, r + 1, D + c) : item(StreamItem::count, r + 2, c - (T - D));
  }

 private:
  TESSERA_HD StreamItem item(StreamItem::Kind k, std::uint32_t row, std::uint32_t tile) const {
    if (row >= rows) return {StreamItem::skip, 0, 0};
    return {k, row, tile};
  }
};

}  // namespace tessera::batched_scan_impl
