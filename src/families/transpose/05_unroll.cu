// Step 5 — each thread moves several elements (seed 000 "Transpose", Unroll:
// "more simultaneous in-flight loads and stores").
//
// What it changes over step 4: the block keeps the padded 32 x 32 tile but
// has 32 x 16 (unroll2) or 32 x 8 (unroll4) threads; each thread loads 2 or 4
// elements, BLOCK_ROWS rows apart, issuing all its loads before the first
// shared-memory store (interior tiles take an unguarded path, so nothing
// orders them). Bytes in flight per SM double (unroll2) or quadruple
// (unroll4) at the same occupancy, and the index arithmetic and the barrier
// are shared by 2 or 4 elements. (The seed unrolls across two horizontally
// adjacent tiles; unrolling down one tile keeps each warp's accesses within
// one tile and needs no second tile in shared memory: the same in-flight
// gain, the layout of NVIDIA's padded transpose.)
//
// Bottleneck: DRAM, and the tile order: consecutive blocks walk along a tile
// row, so the output is written in 128-byte runs down 32 output rows per
// tile. Expected: unroll2 ~80-88%, unroll4 ~88-93% of copy bandwidth (the
// reference point: a padded 32 x 32 tile with 32 x 8 threads reached 92%
// on an H100, cublasSgeam 94%).
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {
// The padded 32 x 32 tile with 16 or 8 thread rows: 2 or 4 elements each.
using Unroll2 = gpu::TilePolicy<32, 16, 1>;
using Unroll4 = gpu::TilePolicy<32, 8, 1>;
}  // namespace

void run_unroll2(const TransposeCall& call) { gpu::run_tile<Unroll2>("transpose_tile_kernel<unroll2>", call); }
void run_unroll4(const TransposeCall& call) { gpu::run_tile<Unroll4>("transpose_tile_kernel<unroll4>", call); }

}  // namespace tessera::transpose_impl
