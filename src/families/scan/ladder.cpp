// The scan ladder: one row per variant, the only place a variant's name,
// step, role and `adds` are written. CPU rungs in every build; the CUDA rungs
// and the vendor baseline in CUDA builds (their run / workspace / supports
// functions: cuda_rungs.hpp). The lab adds step 9's tuning rows
// (lab/scan/tuning_lookback.cuh).
#include "families/scan/contract.hpp"
#include "families/scan/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#include "tessera/blocks/scan_ops.hpp"

#if TESSERA_HAVE_CUDA
#include "families/scan/cuda_rungs.hpp"
#endif

namespace tessera::scan_impl {

using namespace ladder::roles;

namespace {

bool supports_any(const ScanSpec& s) { return scan_supported(s.dtype, s.op, s.accum); }
std::size_t no_workspace(const ScanSpec&) { return 0; }

#define TESSERA_RUNG(name) supports_##name, ws_##name, run_##name

const ScanVariant kLadder[] = {
    {{"scan", "cpu_reference", 0, CPU, REFERENCE, "serial y[i] = y[i-1] + x[i]; float sums in compensated long double, integers wrap exactly (seed 000 Prefix-sum: sequential C)", true}, supports_any, no_workspace, cpu::run_reference},
    {{"scan", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP two-pass: reduce static chunks, scan the chunk totals in thread order, rescan each chunk from its prefix (seed 000 hierarchical scan, on cores)", true}, supports_any, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"scan", "kogge_stone", 2, CUDA, TAUGHT, "one element per thread in shared memory, stride doubling, two barriers per step; 512-element blocks made a full scan by step 7's hierarchical add-back (seed 000 Prefix-sum: Kogge-Stone; seed 003 Scan)", true}, TESSERA_RUNG(kogge_stone)},
    {{"scan", "kogge_stone_double_buffer", 3, CUDA, TAUGHT, "two shared buffers read/written alternately: one barrier per step; step 7's hierarchical add-back (seed 000 Prefix-sum: double-buffered Kogge-Stone)", true}, TESSERA_RUNG(kogge_stone_double_buffer)},
    {{"scan", "brent_kung_modulo", 4, CUDA, TAUGHT, "work-efficient reduction + distribution trees, 2 elements per thread, active where (i+1) % (2*stride) == 0 (divergent); step 7's hierarchical add-back (seed 000 Prefix-sum: Brent-Kung, mapping 1)", true}, TESSERA_RUNG(brent_kung_modulo)},
    {{"scan", "brent_kung_index", 4, CUDA, TAUGHT, "Brent-Kung with the computed index (t+1)*2*stride-1: active threads contiguous, no divergence; step 7's hierarchical add-back (seed 000 Prefix-sum: Brent-Kung, mapping 2)", true}, TESSERA_RUNG(brent_kung_index)},
    {{"scan", "brent_kung_padded", 4, CUDA, TAUGHT, "Brent-Kung, computed index plus one padding slot per 32: strided accesses free of bank conflicts; step 7's hierarchical add-back (seed 000 Prefix-sum: Brent-Kung; PMPP ch. 8)", true}, TESSERA_RUNG(brent_kung_padded)},
    {{"scan", "three_phase", 5, CUDA, TAUGHT, "2048-element sections for 256 threads: corner-turned coalesced load, thread-serial subsection scan, Kogge-Stone over the subsection sums, add back; step 7's hierarchical add-back (seed 000 Algorithm cascading: three-phase)", true}, TESSERA_RUNG(three_phase)},
    {{"scan", "warp_shuffle", 6, CUDA, TAUGHT, "phase 2 with __shfl_up_sync warp scans and one level of warp totals: one barrier instead of eight; step 7's hierarchical add-back (seed 000 Prefix-sum: warp shuffle; seed 003 Scan)", true}, TESSERA_RUNG(warp_shuffle)},
    {{"scan", "hierarchical", 7, CUDA, TAUGHT, "the three kernels as a rung: scan 4096-element sections (16 per thread), scan the section sums recursively (any n), add S[b-1] to section b (seed 000 Hierarchical scan)", true}, TESSERA_RUNG(hierarchical)},
    {{"scan", "reduce_then_scan", 7, CUDA, TAUGHT, "kernel 1 only reduces each section, kernel 3 rescans the input from the section prefix: 3 passes over memory instead of 4 (seed 000 Hierarchical scan, reordered)", true}, TESSERA_RUNG(reduce_then_scan)},
    {{"scan", "chained", 8, CUDA, TAUGHT, "one pass: each section waits for its left neighbour's prefix (flag + __threadfence), sections from an atomic counter so no block waits on an unscheduled one (seed 000 Stream based scan, dynamic block index)", true}, TESSERA_RUNG(chained)},
    {{"scan", "lookback", 9, CUDA, PRODUCT, "single pass, decoupled look-back (aggregates published early, one warp reads 128 predecessors per round trip, flag+value in one word, no fences), 16-byte vectors, 16 floats per thread in registers; float sums not bitwise reproducible (the look-back depth varies)", false}, TESSERA_RUNG(lookback)},
    {{"scan", "lookback_bulk", 9, CUDA, PRODUCT, "persistent warp-specialised look-back: per SM a producer warp claims tiles and bulk-copies (TMA) each into one of 4 shared buffers, an aggregator warp publishes each tile's aggregate as soon as it lands, a look-back warp resolves each tile's prefix ahead of the 8 consumer warps, which only fold, scan and store (48 KiB tiles); 4-byte native scans only", false}, TESSERA_RUNG(lookback_bulk)},
    {{"scan", "cub_device_scan", 10, CUDA, VENDOR, "cub::DeviceScan (Inclusive/ExclusiveSum; Inclusive/ExclusiveScan with the reducer's combine, through lift / finish iterators for wider float accumulators): the vendor baseline", false}, TESSERA_RUNG(cub_device_scan)},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<ScanVariant>& variants_ladder() {
  static ladder::Ladder<ScanVariant> ladder{kLadder};
  return ladder;
}

}  // namespace tessera::scan_impl
