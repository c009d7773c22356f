// Step 6 — block-shape tuning (seed 000 "Transpose", Tunning: "trying
// different block sizes, 16 x 16 was best" on a K40). Every candidate is a
// registered variant, so one bench run measures them side by side on the
// same problems; the public API's choice comes from that measurement
// (src/api/transpose_dispatch.hpp), not from this file.
//
// Each is the padded tile of step 5 (TILE x TILE elements, +1 column,
// TILE x BLOCK_ROWS threads, TILE / BLOCK_ROWS elements per thread) with
// another shape; step 5 already has 32 x 16 (unroll2) and 32 x 8 (unroll4).
//   tile16_16x16  16 x 16 tile, 256 threads, 1 element each: the seed's K40
//                 winner; a warp covers two half rows (64-byte runs for
//                 floats, half a line), 1 load in flight. Expected ~55-70%.
//   tile16_16x8   16 x 16 tile, 128 threads, 2 each. Expected ~65-80%.
//   tile32_32x4   32 x 32 tile, 128 threads, 8 each: more in flight per
//                 thread, fewer threads per barrier. Expected ~88-93%.
//   tile64_64x8   64 x 64 tile (16.3 KiB for floats), 512 threads, 8 each:
//                 256-byte runs on both sides. Expected ~88-94%.
//   tile64_64x16  64 x 64 tile, 1024 threads, 4 each. Expected ~85-92%.
// Bottleneck of them all: DRAM, as in step 5; what moves is the bytes in
// flight per SM (threads per SM x elements per thread), the occupancy the
// tile's shared memory allows, and the run length per row.
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {
template <int TILE, int BLOCK_ROWS>
using Shape = gpu::TilePolicy<TILE, BLOCK_ROWS, 1>;
}  // namespace

void run_tile16_16x16(const TransposeCall& call) { gpu::run_tile<Shape<16, 16>>("transpose_tile_kernel<16, 16x16>", call); }
void run_tile16_16x8(const TransposeCall& call) { gpu::run_tile<Shape<16, 8>>("transpose_tile_kernel<16, 16x8>", call); }
void run_tile32_32x4(const TransposeCall& call) { gpu::run_tile<Shape<32, 4>>("transpose_tile_kernel<32, 32x4>", call); }
void run_tile64_64x8(const TransposeCall& call) { gpu::run_tile<Shape<64, 8>>("transpose_tile_kernel<64, 64x8>", call); }
void run_tile64_64x16(const TransposeCall& call) { gpu::run_tile<Shape<64, 16>>("transpose_tile_kernel<64, 64x16>", call); }

}  // namespace tessera::transpose_impl
