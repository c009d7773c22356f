// csr_nnz_split's partition of a CSR matrix into tiles of TILE nonzeros,
// host-and-device (TESSERA_HD) so that tests/test_spmv_cpu.cpp runs the
// very ownership and fix-up arithmetic the kernels run (08_csr_nnz_split.cu).
//
// Tile t covers nonzeros [t * TILE, min((t + 1) * TILE, nnz)) and owns the
// rows whose end offset lies in (begin, end] — tile 0 also those ending at 0
// (leading empty rows), the last tile also those ending at nnz — so every
// row, empty or not, has exactly one owner. Its segments: s < hi - lo is
// owned row lo + s's part inside the tile; s == hi - lo is the tail, the
// part of row hi (not owned: it ends later) inside the tile, its carry. An
// owned row that began before the tile goes to `head`; the fix-up adds the
// carries of tiles first_carry_tile(r) .. t - 1, nearest first.
#pragma once

#include <cstdint>

#include "tessera/blocks/hd.hpp"

namespace tessera::spmv_impl::nnz_split {

inline constexpr int TILE = 1024;

TESSERA_HD std::int64_t tiles_of(std::int64_t nnz) { return nnz > 0 ? (nnz + TILE - 1) / TILE : 1; }

// The first r in [0, rows) with off[r + 1] > v, or rows.
TESSERA_HD std::int64_t rows_ending_after(const std::int64_t* off, std::int64_t rows, std::int64_t v) {
  std::int64_t lo = 0, hi = rows;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (off[mid + 1] > v) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

struct Tile {
  std::int64_t begin, end;  // nonzeros
  std::int64_t lo, hi;      // owned rows [lo, hi)
  TESSERA_HD std::int64_t segments() const { return hi - lo + 1; }
};

// The first row tile t owns (t in [0, tiles]; t == tiles gives rows, the
// end of the last tile's range): tile t owns [first_row(t), first_row(t+1)).
// A pass over the tile boundaries computes them all at once (the binary
// searches in parallel rather than at the start of every tile).
TESSERA_HD std::int64_t first_row(const std::int64_t* off, std::int64_t rows, std::int64_t tiles, std::int64_t t) {
  if (t == 0) return 0;
  if (t >= tiles) return rows;
  return rows_ending_after(off, rows, t * TILE);
}

TESSERA_HD Tile tile_from(std::int64_t nnz, std::int64_t t, std::int64_t lo, std::int64_t hi) {
  Tile tile;
  tile.begin = t * TILE;
  tile.end = tile.begin + TILE < nnz ? tile.begin + TILE : nnz;
  tile.lo = lo;
  tile.hi = hi;
  return tile;
}

TESSERA_HD Tile tile_of(const std::int64_t* off, std::int64_t rows, std::int64_t nnz, std::int64_t t) {
  const std::int64_t tiles = tiles_of(nnz);
  return tile_from(nnz, t, first_row(off, rows, tiles, t), first_row(off, rows, tiles, t + 1));
}

// Nonzeros [b, e) of segment s.
TESSERA_HD void segment_bounds(const Tile& tile, const std::int64_t* off, std::int64_t s, std::int64_t& b,
                               std::int64_t& e) {
  const std::int64_t r = tile.lo + s;
  if (r < tile.hi) {
    b = off[r] > tile.begin ? off[r] : tile.begin;
    e = off[r + 1];
  } else {
    b = tile.hi > tile.lo ? off[tile.hi] : tile.begin;
    e = tile.end;
  }
}

enum class Destination { y, head, carry };

TESSERA_HD Destination destination(const Tile& tile, const std::int64_t* off, std::int64_t s) {
  const std::int64_t r = tile.lo + s;
  if (r == tile.hi) return Destination::carry;
  return off[r] < tile.begin ? Destination::head : Destination::y;
}

// The first tile whose carry belongs to row r (the tile r begins in).
TESSERA_HD std::int64_t first_carry_tile(const std::int64_t* off, std::int64_t r) { return off[r] / TILE; }

}  // namespace tessera::spmv_impl::nnz_split
