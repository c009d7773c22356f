// Step 6 — block shape (seed 000 "Transpose", Tunning: "trying different
// block sizes, 16 x 16 was best" on a K40).
//
// What the seed teaches here is a sweep: the padded tile of step 5 with
// other tile sizes and thread counts, measured side by side. The ladder keeps
// the two shapes that tell the story:
//   tile16_16x16  the seed's K40 winner: 16 x 16 tile, 16 x 16 threads, one
//                 element each; a warp covers two half rows (64-byte runs
//                 for floats, half a line), one load in flight. On the H100
//                 58.5 % of copy on float 8192² — a shape tuned for one GPU
//                 does not carry to the next.
//   tile64_64x8   the H100's winner and the public API's transpose
//                 (policy.hpp): 64 x 64 tile (16.3 KiB for floats), 64 x 8
//                 threads, 8 elements each, 256-byte runs on both sides.
//                 93.4 % of copy on float 8192², level with cublasSgeam.
// The other points of the sweep (16 x 16 with 16 x 8 threads, 32 x 32 with
// 32 x 4, 64 x 64 with 64 x 16) are tuning rows of the lab
// (lab/transpose/tuning_block_shapes.hpp: each with its measurement).
//
// Bottleneck: DRAM, as in step 5; what moves with the shape is the bytes in
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
void run_tile64_64x8(const TransposeCall& call) { gpu::run_tile<Shape<64, 8>>("transpose_tile_kernel<64, 64x8>", call); }

}  // namespace tessera::transpose_impl
