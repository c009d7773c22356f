// The CUDA batched_scan ladder, one line per variant: name, step, kind, what
// the step adds (and the seed section it comes from), determinism, and the
// supports / workspace / run functions of its rung (rungs.hpp).
#if TESSERA_HAVE_CUDA  // the CUDA rows exist in CUDA builds only
#include <array>
#include <span>

#include "families/batched_scan/cuda_rungs.hpp"
#include "families/batched_scan/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::batched_scan_impl {

using namespace ladder::roles;

namespace {

#define TESSERA_BSCAN_ROW(name) supports_##name, ws_##name, run_##name

constexpr Backend CUDA = Backend::cuda;

const std::array<ScanVariant, 25> cuda_table{{
    {{"batched_scan", "smem_v0_pad0", 2, CUDA, TAUGHT, "a warp owns 32 rows: 32x32 shared tile loaded along rows, each lane scans one row serially; float only, forward_backward as two passes through DRAM; 32-way bank conflicts (seed 002 gpu_cumsum_smem_v0, PAD = 0)", true}, TESSERA_BSCAN_ROW(smem_v0_pad0)},
    {{"batched_scan", "smem_v0_pad1", 2, CUDA, TAUGHT, "the same tile padded to 32x33: conflict-free row scans (seed 002 gpu_cumsum_smem_v0, PAD = 1)", true}, TESSERA_BSCAN_ROW(smem_v0_pad1)},
    {{"batched_scan", "smem_v1", 3, CUDA, TAUGHT, "full row groups and full 32-column chunks run unguarded and unrolled, the ragged edges peeled out (seed 002 gpu_cumsum_smem_v1)", true}, TESSERA_BSCAN_ROW(smem_v1)},
    {{"batched_scan", "warp_v0", 4, CUDA, TAUGHT, "one warp per row, no shared memory: __shfl_up_sync scan of 32-sample chunks with a carried prefix (seed 002 gpu_scansum_warp_v0, its backward remainder bug fixed)", true}, TESSERA_BSCAN_ROW(warp_v0)},
    {{"batched_scan", "fused_one_pass", 5, CUDA, PRODUCT, "a row (<= 10,749 samples) per block, read once with cp.async and written once: forward and backward on chip in the accumulator (float, double, Kahan, double-float), 16-byte loads and stores at any pitch", true}, TESSERA_BSCAN_ROW(fused_one_pass)},
    {{"batched_scan", "fused_occupancy", 5, CUDA, TUNING, "step 5's kernel with a launch-bounds occupancy target per accumulator (float 3 blocks per SM at 56 registers, Kahan and double-float 2 at 80, no spills): one tile scans while another loads", true}, TESSERA_BSCAN_ROW(fused_occupancy)},
    {{"batched_scan", "fused_pipelined", 5, CUDA, PRODUCT, "step 5 run by persistent blocks that cp.async the next two rows into spare shared buffers while they scan and store the current one (st.global.cs), the tile re-cut as 896 threads x 12 samples (shorter accumulator chains, 28 warps per SM)", true}, TESSERA_BSCAN_ROW(fused_pipelined)},
    {{"batched_scan", "fused_pipelined2", 5, CUDA, TUNING, "fused_pipelined with two row buffers (one row of loads in flight instead of two)", true}, TESSERA_BSCAN_ROW(fused_pipelined2)},
    {{"batched_scan", "fused_pipelined_direct", 5, CUDA, TUNING, "fused_pipelined storing each thread's 12 outputs straight from registers (3 float4s) when the output row's alignment matches the tile's, skipping the shared-memory staging and its barrier", true}, TESSERA_BSCAN_ROW(fused_pipelined_direct)},
    {{"batched_scan", "fused_pipelined_pair", 5, CUDA, TUNING, "fused_pipelined's row prefetch (2 stages) on fused_one_pass's 384 x 28 tile at two blocks per SM (80 registers; double one block), so two blocks interleave their barriers", true}, TESSERA_BSCAN_ROW(fused_pipelined_pair)},
    {{"batched_scan", "fused_pipelined_chains", 5, CUDA, TUNING, "fused_pipelined_pair with each thread's 28 items scanned as 2 independent accumulator chains of 14, constant-bound loops for full threads, a tree-form block suffix scan, and two blocks per SM for double too (80 registers): half the dependent chain per pass, twice the warps for double", true}, TESSERA_BSCAN_ROW(fused_pipelined_chains)},
    {{"batched_scan", "fused_pipelined_chains2", 5, CUDA, TUNING, "fused_pipelined_chains with separate inclusive / exclusive copies (no per-item select of the state), the tile's float4 load and store loops in 32-bit offsets unrolled to their constant bound, and no 64-bit division for a tile's row", true}, TESSERA_BSCAN_ROW(fused_pipelined_chains2)},
    {{"batched_scan", "fused_pipelined_chains4", 5, CUDA, TUNING, "fused_pipelined_chains2 with each thread's 28 items as 4 chains of 7 (80 registers, no spills, double included): a quarter of the dependent chain per pass, for 3 combines per thread per pass where 2 chains take 1", true}, TESSERA_BSCAN_ROW(fused_pipelined_chains4)},
    {{"batched_scan", "fused_pipelined_lazy", 5, CUDA, TUNING, "fused_pipelined_chains2 running the double-float and Kahan sums without their renormalising step (two-sums exact, the low part gathers the errors; outputs round once): ~13 of double-float's ~48 additions per sample gone, ~8 of Kahan's ~40", true}, TESSERA_BSCAN_ROW(fused_pipelined_lazy)},
    {{"batched_scan", "fused_pipelined_bulk", 5, CUDA, PRODUCT, "fused_pipelined (896 x 12, 3 row buffers) moving each row's 16-byte-aligned body with one bulk copy each way (Hopper TMA, cp.async.bulk with an mbarrier per row buffer) instead of every thread's 16-byte copies and stores", true}, TESSERA_BSCAN_ROW(fused_pipelined_bulk)},
    {{"batched_scan", "fused_pipelined_lazy_bulk", 5, CUDA, PRODUCT, "fused_pipelined_lazy (384 x 28, 2 chains, lazy double-float and Kahan sums) with fused_pipelined_bulk's bulk row copies", true}, TESSERA_BSCAN_ROW(fused_pipelined_lazy_bulk)},
    {{"batched_scan", "fused_pipelined_masked", 5, CUDA, TUNING, "fused_pipelined (896 x 12, 3 row buffers) with one unpredicated copy of the item loops (the row-edge warps zero their padding and mask with selects instead of diverging from a constant-bound copy) and separate inclusive / exclusive copies (no per-item select)", true}, TESSERA_BSCAN_ROW(fused_pipelined_masked)},
    {{"batched_scan", "fused_fitted", 5, CUDA, PRODUCT, "rows of up to 7,677 samples: fused_pipelined_lazy_bulk's kernel with the tile cut to the row (the smallest of 32 x 12 to 384 x 20 that holds it) and as many blocks per SM as that tile allows, so that short rows keep enough loads in flight", true}, TESSERA_BSCAN_ROW(fused_fitted)},
    {{"batched_scan", "multi_tile", 6, CUDA, PRODUCT, "rows of any length split into tiles spread over the grid: tile totals, per-row warp scan of the totals (forward carry, backward carry n*P + Q for forward_backward), then step 5's tile kernel with carries", true}, TESSERA_BSCAN_ROW(multi_tile)},
    {{"batched_scan", "multi_tile_occupancy", 6, CUDA, PRODUCT, "step 6's three launches with step 5 fused_occupancy's per-accumulator occupancy target (more resident tiles per SM for the 8-byte accumulators)", true}, TESSERA_BSCAN_ROW(multi_tile_occupancy)},
    {{"batched_scan", "multi_tile_pipelined", 6, CUDA, PRODUCT, "step 6's totals and carries, then the tile pass through step 5 fused_pipelined's kernel: persistent 896-thread blocks with the next two tiles in flight while one is scanned and stored", true}, TESSERA_BSCAN_ROW(multi_tile_pipelined)},
    {{"batched_scan", "multi_tile_resident", 6, CUDA, PRODUCT, "long rows read once: persistent warp-specialised blocks keep each row's tiles in shared memory (TMA copies into 5 buffers per SM) until the whole row has landed; aggregator warps publish each tile's totals, a finisher warp computes the carries of each completed row, consumers scan with them (Kahan and double-float without renormalisation; rows of up to SMs x 2.5 tiles; longer ones are streamed as multi_tile_streamed)", true}, TESSERA_BSCAN_ROW(multi_tile_resident)},
    {{"batched_scan", "multi_tile_resident_self", 6, CUDA, PRODUCT, "multi_tile_resident without the finisher: each tile's carry warp computes its own tile's carries from the row's totals once all are published (a shorter chain from a row's last totals to its consumers than finisher, global carries, ready flag, carry loads)", true}, TESSERA_BSCAN_ROW(multi_tile_resident_self)},
    {{"batched_scan", "multi_tile_streamed", 6, CUDA, PRODUCT, "long rows of any length in one launch, read at most twice: multi_tile_resident's warp roles with each tile claimed twice, a count (its totals) and, after every count of its row, a scan from a second bulk copy, last tile first, alternating with the next row's counts; carries in two levels (each 32-tile chunk's within the chunk once it is counted, then the row's chunks'), so a row's scans wait only for its last chunk; the resident rungs' path for rows past their capacity", true}, TESSERA_BSCAN_ROW(multi_tile_streamed)},
    {{"batched_scan", "short_rows", 7, CUDA, PRODUCT, "rows of <= 128 samples share a warp: a segment of S lanes per row (4 samples each), segmented shuffles (width S), no barrier, no shared memory; Kahan and double-float without renormalisation", true}, TESSERA_BSCAN_ROW(short_rows)},
}};

#undef TESSERA_BSCAN_ROW

}  // namespace

std::span<const ScanVariant> cuda_variants() { return cuda_table; }

}  // namespace tessera::batched_scan_impl

#endif  // TESSERA_HAVE_CUDA
