// The lab's rows of the batched_scan ladder (Role::tuning), added to the
// product's ladder by tessera-lab and tessera_lab_tests: the fused kernel's
// occupancy and pipeline experiments (step 5; their measurements in
// 05_fused_occupancy.cu, 05_fused_pipelined_sweep.cu,
// 05_fused_pipelined_lean.cu and tuning_pipelined.cuh) and the long-row paths that
// multi_tile_resident_self runs inside, each alone (step 6; product code,
// src/families/batched_scan/06_multi_tile*.cu). docs/batched_scan.md, "What
// was tried", has every row's result.
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include "batched_scan/lab_rungs.hpp"
#include "families/batched_scan/contract.hpp"
#include "families/batched_scan/cuda_rungs.hpp"
#include "ladder/ladder.hpp"
#endif

namespace tessera::lab {

#if TESSERA_HAVE_CUDA
namespace {

using namespace tessera::ladder::roles;
using namespace tessera::batched_scan_impl;

#define TESSERA_BSCAN_ROW(name) supports_##name, ws_##name, run_##name

// clang-format off
const ScanVariant kBatchedScanLab[] = {
    {{"batched_scan", "fused_occupancy", 5, CUDA, TUNING, "fused_one_pass's kernel with a launch-bounds occupancy target per accumulator (float 3 blocks per SM at 56 registers, Kahan and double-float 2 at 80, no spills): one tile scans while another loads", true}, TESSERA_BSCAN_ROW(fused_occupancy)},
    {{"batched_scan", "fused_pipelined", 5, CUDA, TUNING, "step 5 run by persistent blocks that cp.async the next two rows into spare shared buffers while they scan and store the current one (st.global.cs), the tile re-cut as 896 threads x 12 samples (shorter accumulator chains, 28 warps per SM); fused_pipelined_bulk without its bulk copies", true}, TESSERA_BSCAN_ROW(fused_pipelined)},
    {{"batched_scan", "fused_pipelined_two_stages", 5, CUDA, TUNING, "fused_pipelined with two row buffers (one row of loads in flight instead of two)", true}, TESSERA_BSCAN_ROW(fused_pipelined_two_stages)},
    {{"batched_scan", "fused_pipelined_register_stores", 5, CUDA, TUNING, "fused_pipelined storing each thread's 12 outputs straight from registers (3 float4s) when the output row's alignment matches the tile's, skipping the shared-memory staging and its barrier", true}, TESSERA_BSCAN_ROW(fused_pipelined_register_stores)},
    {{"batched_scan", "fused_pipelined_two_blocks", 5, CUDA, TUNING, "fused_pipelined's row prefetch (2 stages) on fused_one_pass's 384 x 28 tile at two blocks per SM (80 registers; double one block), so two blocks interleave their barriers", true}, TESSERA_BSCAN_ROW(fused_pipelined_two_blocks)},
    {{"batched_scan", "fused_pipelined_two_chains", 5, CUDA, TUNING, "fused_pipelined_two_blocks with each thread's 28 items scanned as 2 independent accumulator chains of 14, one unpredicated copy of the item loops, a tree-form block suffix scan, and two blocks per SM for double too (80 registers)", true}, TESSERA_BSCAN_ROW(fused_pipelined_two_chains)},
    {{"batched_scan", "fused_pipelined_masked", 5, CUDA, TUNING, "fused_pipelined (896 x 12, 3 row buffers) with one unpredicated copy of the item loops (the row-edge warps zero their padding and mask with selects) and separate inclusive / exclusive copies", true}, TESSERA_BSCAN_ROW(fused_pipelined_masked)},
    {{"batched_scan", "fused_pipelined_two_chains_lean", 5, CUDA, TUNING, "fused_pipelined_two_chains with separate inclusive / exclusive copies, the tile's float4 load and store loops in 32-bit offsets unrolled to their constant bound, and no 64-bit division for a tile's row", true}, TESSERA_BSCAN_ROW(fused_pipelined_two_chains_lean)},
    {{"batched_scan", "fused_pipelined_four_chains_lean", 5, CUDA, TUNING, "fused_pipelined_two_chains_lean with each thread's 28 items as 4 chains of 7 (80 registers, no spills, double included)", true}, TESSERA_BSCAN_ROW(fused_pipelined_four_chains_lean)},
    {{"batched_scan", "fused_pipelined_lazy", 5, CUDA, TUNING, "fused_pipelined_two_chains_lean running the double-float and Kahan sums without their renormalising step (two-sums exact, the low part gathers the errors; outputs round once); fused_pipelined_lazy_bulk without its bulk copies", true}, TESSERA_BSCAN_ROW(fused_pipelined_lazy)},
    {{"batched_scan", "multi_tile", 6, CUDA, TUNING, "rows of any length split into tiles spread over the grid: tile totals, per-row warp scan of the totals (forward carry, backward carry n*P + Q for forward_backward), then step 5's tile kernel with carries (three launches, each sample read twice)", true}, TESSERA_BSCAN_ROW(multi_tile)},
    {{"batched_scan", "multi_tile_occupancy", 6, CUDA, TUNING, "multi_tile's three launches with fused_occupancy's per-accumulator occupancy target (more resident tiles per SM for the 8-byte accumulators)", true}, TESSERA_BSCAN_ROW(multi_tile_occupancy)},
    {{"batched_scan", "multi_tile_pipelined", 6, CUDA, TUNING, "multi_tile's totals and carries, then the tile pass through fused_pipelined's kernel: persistent 896-thread blocks with the next two tiles in flight while one is scanned and stored", true}, TESSERA_BSCAN_ROW(multi_tile_pipelined)},
    {{"batched_scan", "multi_tile_resident", 6, CUDA, TUNING, "multi_tile_resident_self with a finisher warp that computes the carries of each completed row into global memory and a ready flag per row, instead of each tile's carry warp computing its own", true}, TESSERA_BSCAN_ROW(multi_tile_resident)},
    {{"batched_scan", "multi_tile_streamed", 6, CUDA, TUNING, "every row streamed in one launch, read at most twice: each tile claimed twice, a count (its totals) and, after every count of its row, a scan from a second bulk copy, last tile first, alternating with the next row's counts; two-level carries (32-tile chunks, then the row's chunks); multi_tile_resident_self's path for forward_backward rows past its capacity", true}, TESSERA_BSCAN_ROW(multi_tile_streamed)},
};
// clang-format on

#undef TESSERA_BSCAN_ROW

}  // namespace
#endif

void register_batched_scan_lab() {
#if TESSERA_HAVE_CUDA
  batched_scan_impl::variants_ladder().add(kBatchedScanLab);
#endif
}

}  // namespace tessera::lab
