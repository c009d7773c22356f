// Grouped tile order: the tile-order policy of the lab's grouped_order and
// vec16_grouped rows (a drop-in for the product's RowMajorOrder,
// src/families/transpose/tile.cuh).
//
// Why it was tried: in row-major tile order the ~1000 blocks resident on an
// H100 (132 SMs x 8) cover about 4 tile rows of an 8192-wide matrix. The
// input is read along whole rows, but each output row receives only 4 x 128
// bytes from them: the output goes to DRAM as short runs scattered over 8192
// rows. In bands of GROUP tile rows walked column by column the resident
// blocks cover ~16 tile rows x ~64 tile columns: input rows are read in
// ~8 KiB runs and output rows written in 2 KiB runs (the grouped block order
// of tiled GEMMs; DRAM pages here, L2 there).
// Measured (H100, docs/results/transpose-h100-2026-11-23c.json): the order
// alone (grouped_order vs unroll4) moved float 8192^2 from 91.2 to 91.5 % of
// copy and double 8192^2 from 96.4 to 95.5 %: within noise, not kept.
#pragma once

#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl::gpu {

struct GroupedOrder {
  // Tile rows per band. 16: a guess from the resident-block count above,
  // never swept (the order itself made no difference).
  static constexpr unsigned GROUP = 16;

  static __device__ __forceinline__ TileIndex tile_of(unsigned block, unsigned tiles_x, unsigned tiles_y) {
    // Every band but the last holds g = min(GROUP, tiles_y) tile rows, so
    // band * g is the first tile row of block's band; g * tiles_x <=
    // tiles_y * tiles_x fits 32 bits.
    const unsigned g = tiles_y < GROUP ? tiles_y : GROUP;
    const unsigned band = block / (g * tiles_x);
    const unsigned first = band * g;
    const unsigned in_band = block - band * g * tiles_x;
    const unsigned band_rows = tiles_y - first < g ? tiles_y - first : g;
    return {in_band / band_rows, first + in_band % band_rows};
  }
};

}  // namespace tessera::transpose_impl::gpu
