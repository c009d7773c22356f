// The block-shape sweep of step 6 (seed 000 "Transpose", Tunning: "trying
// different block sizes") as data: the padded tile of step 5
// (transpose_tile_kernel, one padding element) at other tile sizes and
// thread counts, one lab row per line (06_block_shape_sweep.cu).
//
// The sweep's two shapes that stay in the product ladder
// (src/families/transpose/06_block_shapes.cu): tile16_16x16, the seed's K40
// winner (58.5 % of copy on float 8192^2), and tile64_64x8, the H100's and
// the public API's (93.4 %). Step 5's unroll2 (32 x 16 threads) and unroll4
// (32 x 8) are points of the same sweep the seed teaches as their own step.
//
// Measured on an H100 80GB HBM3 by `tessera bench transpose`, % of the copy
// ceiling (docs/results/transpose-h100-2026-11-23c.json; the rows since
// 294f567, tile64_64x8 chosen in 361c7f6): float 8192^2 / 65536 x 1024 /
// 65537 x 1023 / 5000 x 3001, then double 8192^2.
#pragma once

#include <string_view>

namespace tessera::transpose_impl::tuning {

struct BlockShape {
  int tile;            // TILE x TILE elements per tile
  int block_rows;      // TILE x BLOCK_ROWS threads, TILE / BLOCK_ROWS elements each
  std::string_view name;
  const char* kernel;  // the launch's name in errors
  std::string_view adds;
};

inline constexpr BlockShape BLOCK_SHAPE_SWEEP[] = {
    // 79.8 / 80.8 / 54.6 / 70.6, double 93.1: half-line runs, 2 loads in
    // flight per thread. Rejected: below tile64_64x8 everywhere.
    {16, 8, "tile16_16x8", "transpose_tile_kernel<16, 16x8>",
     "block shape: 16x16 tile, 16x8 threads, 2 elements each (seed 000 Transpose Tunning: a point of the sweep)"},
    // 90.6 / 81.5 / 57.5 / 78.6, double 95.5 (65536 x 1024 read 91.6 in the
    // first run). Rejected: below tile64_64x8 everywhere.
    {32, 4, "tile32_32x4", "transpose_tile_kernel<32, 32x4>",
     "block shape: 32x32 tile, 32x4 threads, 8 elements each (seed 000 Transpose Tunning: a point of the sweep)"},
    // 89.9 / 91.2 / 78.3 / 75.6, double 96.3: the best of the ladder on
    // 65537 x 1023 (1.16x cublasSgeam, tile64_64x8 1.02x) and on double
    // 8192^2 by 0.4 points; 0.97x cublasSgeam on float 8192^2. Rejected as
    // the one default (a per-shape rule is open work, docs/transpose.md).
    {64, 16, "tile64_64x16", "transpose_tile_kernel<64, 64x16>",
     "block shape: 64x64 tile, 64x16 threads, 4 elements each (seed 000 Transpose Tunning: a point of the sweep)"},
};

}  // namespace tessera::transpose_impl::tuning
