// Step 4 — the padded tile (seed 000 "Transpose", Rectangle Shared Memory
// Padded; NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++").
//
// What it changes over step 3: each tile row gets one extra element (a 32 x
// 33 array). A column of the tile is then 33 words apart per element: the 32
// lanes of a warp reading tile[tx][ty] land in 32 different banks (33 = 1 mod
// 32), so the column read is one wavefront instead of 32. For doubles one
// extra element is 2 words: 66 = 2 mod 32, 16 lanes per half warp on 16
// distinct bank pairs, conflict-free too (seed 000's K40 needed two columns
// of padding because its banks were 8 bytes wide).
//
// Bottleneck: DRAM latency: still one element per thread, one load in flight;
// 2048 threads x 4 bytes = 8 KiB in flight per SM, about half of what
// Little's law asks on an H100 (~3 TB/s x ~0.7 us / 132 SMs ~ 16 KiB).
// Expected ~65-80% of copy bandwidth.
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {
// The shared_tile rung with one padding element per tile row.
using PaddedTile = gpu::TilePolicy<32, 32, 1>;
}  // namespace

void run_padded_tile(const TransposeCall& call) { gpu::run_tile<PaddedTile>("transpose_tile_kernel<padded_tile>", call); }

}  // namespace tessera::transpose_impl
