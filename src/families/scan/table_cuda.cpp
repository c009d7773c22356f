// The CUDA scan ladder, one line per variant: name, step, kind, what the step
// adds (and the seed section it comes from), determinism, and the supports /
// workspace / run functions of its rung (rungs.hpp).
#if TESSERA_HAVE_CUDA  // the CUDA rows exist in CUDA builds only
#include <array>
#include <span>

#include "families/scan/cuda_rungs.hpp"
#include "families/scan/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::scan_impl {

using namespace ladder::roles;

namespace {

#define TESSERA_RUNG(name) supports_##name, ws_##name, run_##name

constexpr Backend CUDA = Backend::cuda;

const std::array<ScanVariant, 24> cuda_table{{
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
    {{"scan", "lookback_large_tiles", 9, CUDA, TUNING, "lookback with 32 floats per thread (8 vectors, 32 KiB tiles): half the tiles and look-backs, 2 blocks per SM; 4-byte native scans only", false}, TESSERA_RUNG(lookback_large_tiles)},
    {{"scan", "lookback_small_blocks", 9, CUDA, TUNING, "lookback with 128-thread blocks (8 KiB tiles), up to 8 per SM: less of the SM idles behind a look-back; 4-byte native scans only", false}, TESSERA_RUNG(lookback_small_blocks)},
    {{"scan", "lookback_window32", 9, CUDA, PRODUCT, "lookback_large_tiles with 1 status slot per lane: 32 predecessors (256 B) per poll, less L2 contention per round; 4-byte native scans only", false}, TESSERA_RUNG(lookback_window32)},
    {{"scan", "lookback_window64", 9, CUDA, TUNING, "lookback_large_tiles with 2 status slots per lane: 64 predecessors (512 B) per poll; 4-byte native scans only", false}, TESSERA_RUNG(lookback_window64)},
    {{"scan", "lookback_no_backoff", 9, CUDA, TUNING, "lookback_large_tiles without the __nanosleep back-off: waiting warps re-poll at once; 4-byte native scans only", false}, TESSERA_RUNG(lookback_no_backoff)},
    {{"scan", "lookback_384x6", 9, CUDA, TUNING, "384 threads x 6 vectors (24 floats per thread, 36 KiB tiles), 2 blocks per SM, 64-wide window: CUB-like tile shape, 72 KiB of loads in flight per SM; 4-byte native scans only", false}, TESSERA_RUNG(lookback_384x6)},
    {{"scan", "lookback_512x4", 9, CUDA, TUNING, "512 threads x 4 vectors (32 KiB tiles), 2 blocks per SM, 64-wide window: more warps per block hide the look-back warp; 4-byte native scans only", false}, TESSERA_RUNG(lookback_512x4)},
    {{"scan", "lookback_persistent", 9, CUDA, TUNING, "persistent, pipelined look-back: grid = resident blocks, each loops over tiles from the counter and loads its next tile before looking back, so reads never stop behind a look-back; 256 x 4 vectors, 3 blocks per SM; 4-byte native scans only", false}, TESSERA_RUNG(lookback_persistent)},
    {{"scan", "lookback_persistent_large", 9, CUDA, TUNING, "lookback_persistent with 32 KiB tiles (256 x 8 vectors), 2 blocks per SM; 4-byte native scans only", false}, TESSERA_RUNG(lookback_persistent_large)},
    {{"scan", "lookback_early_publish", 9, CUDA, PRODUCT, "lookback_window32 reordered: the tile aggregate published right after the loads land (thread total + warp butterfly, before the row scans), only missing status slots re-polled, the other warps scan their rows during the look-back, st.global.cs output; 256 x 12 vectors (48 KiB tiles), 2 blocks per SM; 4-byte native scans only", false}, TESSERA_RUNG(lookback_early_publish)},
    {{"scan", "lookback_early_publish_32k", 9, CUDA, TUNING, "lookback_early_publish with 32 KiB tiles (256 x 8 vectors, lookback_window32's shape): the kernel changes alone; 4-byte native scans only", false}, TESSERA_RUNG(lookback_early_publish_32k)},
    {{"scan", "lookback_bulk", 9, CUDA, PRODUCT, "persistent warp-specialised look-back: per SM a producer warp claims tiles and bulk-copies (TMA) each into one of 4 shared buffers, an aggregator warp publishes each tile's aggregate as soon as it lands, a look-back warp resolves each tile's prefix ahead of the 8 consumer warps, which only fold, scan and store (48 KiB tiles); 4-byte native scans only", false}, TESSERA_RUNG(lookback_bulk)},
    {{"scan", "lookback_bulk_w128", 9, CUDA, TUNING, "lookback_bulk with the look-back warp reading 128 predecessors per round trip (4 slots per lane); 4-byte native scans only", false}, TESSERA_RUNG(lookback_bulk_w128)},
}};

#undef TESSERA_RUNG

}  // namespace

std::span<const ScanVariant> cuda_variants() { return cuda_table; }

}  // namespace tessera::scan_impl

#endif  // TESSERA_HAVE_CUDA
