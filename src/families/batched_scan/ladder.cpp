// The batched_scan ladder: the family's only table, one line per variant
// (name, step, role, what the step adds and the seed section it comes from,
// determinism, and its supports / workspace / run functions). CUDA and vendor
// rows exist in CUDA builds only. The lab's tuning rows
// (lab/batched_scan/register.cpp) join through variants_ladder().add().
#include <fmt/format.h>

#include "families/batched_scan/contract.hpp"
#include "families/batched_scan/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/batched_scan/cuda_rungs.hpp"
#endif

namespace tessera {

std::string_view to_string(ScanDirection d) noexcept {
  switch (d) {
    case ScanDirection::forward: return "forward";
    case ScanDirection::backward: return "backward";
    case ScanDirection::forward_backward: return "forward_backward";
  }
  return "?";
}

}  // namespace tessera

namespace tessera::batched_scan_impl {

namespace {

using namespace ladder::roles;

bool supports_any(const ScanSpec&) { return true; }
std::size_t no_workspace(const ScanSpec&) { return 0; }

#define TESSERA_BSCAN_ROW(name) supports_##name, ws_##name, run_##name

// clang-format off
const ScanVariant kLadder[] = {
    {{"batched_scan", "cpu_reference", 0, CPU, REFERENCE, "serial rows in compensated long double, forward result kept unrounded (seed 002 cpu_scansum_kernel, made exact)", true}, supports_any, no_workspace, cpu::run_reference},
    {{"batched_scan", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP over rows, each row serial with the requested accumulator (seed 002 CPU loop, rows in parallel)", true}, supports_any, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"batched_scan", "smem_v0_bank_conflicts", 2, CUDA, TAUGHT, "a warp owns 32 rows: 32x32 shared tile loaded along rows, each lane scans one row serially; float only, forward_backward as two passes through DRAM; 32-way bank conflicts (seed 002 gpu_cumsum_smem_v0, PAD = 0)", true}, TESSERA_BSCAN_ROW(smem_v0_bank_conflicts)},
    {{"batched_scan", "smem_v0_padded", 2, CUDA, TAUGHT, "the same tile padded to 32x33: conflict-free row scans (seed 002 gpu_cumsum_smem_v0, PAD = 1)", true}, TESSERA_BSCAN_ROW(smem_v0_padded)},
    {{"batched_scan", "smem_v1", 3, CUDA, TAUGHT, "full row groups and full 32-column chunks run unguarded and unrolled, the ragged edges peeled out (seed 002 gpu_cumsum_smem_v1)", true}, TESSERA_BSCAN_ROW(smem_v1)},
    {{"batched_scan", "warp_v0", 4, CUDA, TAUGHT, "one warp per row, no shared memory: __shfl_up_sync scan of 32-sample chunks with a carried prefix (seed 002 gpu_scansum_warp_v0, its backward remainder bug fixed)", true}, TESSERA_BSCAN_ROW(warp_v0)},
    {{"batched_scan", "fused_one_pass", 5, CUDA, PRODUCT, "a row (<= 10,749 samples) per block, read once with cp.async and written once: forward and backward on chip in the accumulator (float, double, Kahan, double-float), 16-byte loads and stores at any pitch", true}, TESSERA_BSCAN_ROW(fused_one_pass)},
    {{"batched_scan", "fused_pipelined_bulk", 5, CUDA, PRODUCT, "step 5 run by persistent 896-thread blocks (896 x 12 tile, 3 row buffers) that copy the next two rows in while they scan and store one, each row's 16-byte-aligned body moved by one bulk copy each way (Hopper TMA, cp.async.bulk with an mbarrier per row buffer)", true}, TESSERA_BSCAN_ROW(fused_pipelined_bulk)},
    {{"batched_scan", "fused_pipelined_lazy_bulk", 5, CUDA, PRODUCT, "the same bulk row pipeline on the 384 x 28 tile at two blocks per SM, each thread's items as 2 accumulator chains, inclusive / exclusive copies, double-float and Kahan sums without renormalisation (lazy)", true}, TESSERA_BSCAN_ROW(fused_pipelined_lazy_bulk)},
    {{"batched_scan", "fused_fitted", 5, CUDA, PRODUCT, "rows of up to 7,677 samples: fused_pipelined_lazy_bulk's kernel with the tile cut to the row (the smallest of 32 x 12 to 384 x 20 that holds it) and as many blocks per SM as that tile allows, so that short rows keep enough loads in flight", true}, TESSERA_BSCAN_ROW(fused_fitted)},
    {{"batched_scan", "multi_tile_resident_self", 6, CUDA, PRODUCT, "long rows read once: persistent warp-specialised blocks keep each row's tiles in shared memory (TMA copies into 5 buffers per SM) until the whole row has landed; aggregator warps publish each tile's totals, each tile's carry warp computes its carries from them, consumers scan; rows past the capacity streamed (forward_backward: read twice) or chained (one direction: read once)", true}, TESSERA_BSCAN_ROW(multi_tile_resident_self)},
    {{"batched_scan", "short_rows", 7, CUDA, PRODUCT, "rows of <= 128 samples (<= 256 for the 8-byte accumulators) share a warp: a segment of S lanes per row (4 or 8 samples each), segmented shuffles (width S), no barrier, no shared memory; Kahan and double-float without renormalisation", true}, TESSERA_BSCAN_ROW(short_rows)},
    // false: the look-back's association of float partials depends on timing.
    {{"batched_scan", "cub_scan_by_key", 8, CUDA, VENDOR, "cub::DeviceScan::{Inclusive,Exclusive}SumByKey with row keys, forward, then over reverse iterators through a float temporary (the best CUB composition: float, compact rows)", false}, TESSERA_BSCAN_ROW(cub_scan_by_key)},
#endif
};
// clang-format on

#undef TESSERA_BSCAN_ROW

}  // namespace

ladder::Ladder<ScanVariant>& variants_ladder() {
  static ladder::Ladder<ScanVariant> ladder{std::span<const ScanVariant>(kLadder)};
  return ladder;
}

std::span<const ScanVariant> all_variants() { return variants_ladder().all(); }

const ScanVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

std::string describe(const ScanSpec& s) {
  return fmt::format("{} {}, accumulator {}, {} rows x {} samples (pitches {}/{}{})", to_string(s.direction),
                     s.exclusive ? "exclusive" : "inclusive", to_string(s.accum), s.rows, s.len, s.in_pitch,
                     s.out_pitch, s.in_place ? ", in place" : "");
}

}  // namespace tessera::batched_scan_impl
