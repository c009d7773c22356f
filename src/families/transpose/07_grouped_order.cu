// Step 7 (tessera) — grouped tile order: the unroll4 kernel (padded 32 x 32
// tile, 32 x 8 threads, 4 elements each) with another mapping from block
// index to tile; nothing else changes, so this row against unroll4 measures
// the order alone.
//
// Why: in row-major tile order the ~1000 blocks resident at once (132 SMs x
// 8) cover about 4 tile rows of an 8192-wide matrix. The input is read along
// whole rows (long runs, DRAM-friendly), but each output row receives only
// 4 x 128 bytes from them — the output goes to DRAM as short runs scattered
// over 8192 rows, one DRAM page opened per 128-512 bytes written. In grouped
// order (tile_of<grouped>, GROUP = 16 tile rows per band, walked column by
// column) the resident blocks cover ~16 tile rows x ~64 tile columns: input
// rows are read in ~8 KiB runs and output rows written in 2 KiB runs. The
// same idea as the grouped block order of tiled GEMMs (better L2 reuse there;
// DRAM page locality here).
//
// Bottleneck: DRAM. Expected: equal to unroll4 or up to ~3 points of copy
// bandwidth above it on large square matrices; no effect on matrices whose
// output rows are short (tall-skinny inputs have few tile columns). A
// prediction: the bench decides.
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {
// unroll4's policy in grouped order.
using GroupedUnroll4 = gpu::TilePolicy<32, 8, 1, gpu::TileOrder::grouped>;
}  // namespace

void run_grouped_order(const TransposeCall& call) {
  gpu::run_tile<GroupedUnroll4>("transpose_tile_kernel<grouped_order>", call);
}

}  // namespace tessera::transpose_impl
