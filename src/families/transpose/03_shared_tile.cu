// Step 3 — the shared-memory tile (seed 000 "Transpose", Rectangle Shared
// Memory; seed 004 Ex 3, Transpose_v1).
//
// What it changes over step 2: a 32 x 32 block loads a 32 x 32 tile with
// coalesced reads along the input rows into shared memory, waits at a
// barrier, then writes the tile's columns as output rows, coalesced too. Both
// global sides are now whole 128-byte lines. (Seed 000's version calls
// __syncthreads() inside `if (ix < nx && iy < ny)`, which deadlocks or is
// undefined at the matrix edge; here every thread reaches the barrier and only
// the loads and stores are guarded.)
//
// Bottleneck: shared-memory bank conflicts on the column read: tile[tx][ty]
// for the 32 lanes of a warp is 32 words exactly 32 words apart, all in one
// bank — each read is replayed 32 times (for doubles, 16 times per half
// warp). One element per thread also leaves one load in flight per thread.
// Expected ~45-60% of copy bandwidth: the 32 shared-memory wavefronts per
// warp read cost more than the DRAM time.
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {
// 32 x 32 elements, one per thread (1024 threads: 2 blocks fill an SM);
// PAD = 0: the bank conflicts this step shows.
using SharedTile = gpu::TilePolicy<32, 32, 0>;
}  // namespace

void run_shared_tile(const TransposeCall& call) { gpu::run_tile<SharedTile>("transpose_tile_kernel<shared_tile>", call); }

}  // namespace tessera::transpose_impl
