// The composition ladders: one table per pattern, one line per variant (name,
// step, role, what the step adds and the seed section it comes from,
// determinism, and the supports / workspace / run functions of its rung).
// PRODUCT rows are exactly the variants policy.hpp may pick; the tuning rows
// are the lab's (lab/compose/register.cpp), added to these ladders there.
// Steps follow the rung files (compact/05_single_pass_early.cu: step 5), so
// a pattern's ladder may skip the steps of rungs it does not use.
// Every variant here is deterministic: outputs are placed by scans, never by
// the order in which atomics happen to run.
#include <vector>

#include "families/compose/contract.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "ladder/ladder.hpp"

namespace tessera::compose_impl {

using namespace ladder::roles;

namespace {

#define TESSERA_RUNG(name) supports_##name, ws_##name, run_##name

const Variant map_table[] = {
    {{"map", "cpu_reference", 0, CPU, REFERENCE, "serial loop y[i] = f(x[i]); integers wrap in the unsigned type (seed 003 Map)", true}, TESSERA_RUNG(cpu_reference)},
    {{"map", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP parallel for: map has no dependences (seed 003 Map: side-effect free, independent)", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"map", "one_per_thread", 2, CUDA, TAUGHT, "one element per thread, idx = blockIdx.x * 256 + threadIdx.x, guarded (seed 003 Map)", true}, TESSERA_RUNG(map_one_per_thread)},
    {{"map", "vectorized", 3, CUDA, PRODUCT, "16-byte loads and stores, 4 in flight per thread, tiles aligned to 16 B with scalar edges", true}, TESSERA_RUNG(map_vectorized)},
    {{"map", "cub_transform", 4, CUDA, VENDOR, "cub::DeviceTransform::Transform: the vendor baseline", true}, TESSERA_RUNG(cub_transform)},
#endif
};

const Variant adjacent_difference_table[] = {
    {{"adjacent_difference", "cpu_reference", 0, CPU, REFERENCE, "serial y[i] = |x[i] - x[i-1]|, y[0] = |x[0]| (seed 003 When to Use Shared Memory?)", true}, TESSERA_RUNG(cpu_reference)},
    {{"adjacent_difference", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP parallel for over i (every output reads only inputs)", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"adjacent_difference", "naive_global", 2, CUDA, TAUGHT, "one output per thread, x[i] and x[i-1] both loaded from global memory: every input read twice (seed 003 absolute_diff)", true}, TESSERA_RUNG(adjdiff_naive_global)},
    {{"adjacent_difference", "shared_tile", 3, CUDA, TAUGHT, "block tile + halo element in shared memory, one barrier outside the divergent branches (seed 003 Synchronization: the corrected code; the first version syncs inside an if)", true}, TESSERA_RUNG(adjdiff_shared_tile)},
    {{"adjacent_difference", "vectorized_shuffle", 4, CUDA, PRODUCT, "16-byte loads, the left neighbour from the previous lane by __shfl_up_sync (lane 0: one cached load): no shared memory, no barrier", true}, TESSERA_RUNG(adjdiff_vectorized)},
    {{"adjacent_difference", "cub_adjacent_difference", 5, CUDA, VENDOR, "cub::DeviceAdjacentDifference::SubtractLeftCopy with an |a - b| operator: the vendor baseline", true}, TESSERA_RUNG(cub_adjacent_difference)},
#endif
};

const Variant compact_table[] = {
    {{"compact", "cpu_reference", 0, CPU, REFERENCE, "serial: copy x[i] when it passes (seed 003 Compact)", true}, TESSERA_RUNG(cpu_reference)},
    {{"compact", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: count per thread chunk, scan the counts, each thread writes its chunk", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"compact", "flags_scan_scatter", 2, CUDA, TAUGHT, "map to a flag array, tessera's exclusive scan of the flags, scatter: three kernels, flags and indices through memory (seed 003 Compact)", true}, TESSERA_RUNG(select_flags_scan_scatter)},
    {{"compact", "two_pass", 3, CUDA, TAUGHT, "no flag array: count per tile, scan the tile counts, re-read each tile and scatter it by a block scan (seed 000 hierarchical scan applied to Compact)", true}, TESSERA_RUNG(select_two_pass)},
    {{"compact", "single_pass_early", 5, CUDA, PRODUCT, "one pass: decoupled look-back over 8-byte tile-count words on 512-thread tiles (32 KiB), warp 0 looking back before staging while the other warps stage, sparse 32-slot re-poll, L2 prefetch of the tile over the tile-index atomic, st.global.cs output", true}, TESSERA_RUNG(select_single_pass_early)},
    {{"compact", "single_pass_bulk", 6, CUDA, PRODUCT, "single_pass_early's tile in the scan's warp-specialised persistent look-back (lookback_bulk): per SM a producer warp bulk-copies (TMA) tiles into 4 shared buffers, 8 aggregator warps publish each tile's count as it lands, a look-back warp resolves prefixes ahead of 16 consumer warps that select, rank, stage and store (st.global.cs); predicates only", true}, TESSERA_RUNG(select_single_pass_bulk)},
    {{"compact", "cub_select_flagged", 7, CUDA, VENDOR, "cub::DeviceSelect::Flagged: the vendor baseline for flag-driven selection", true}, TESSERA_RUNG(cub_select_flagged)},
    {{"compact", "cub_select_if", 7, CUDA, VENDOR, "cub::DeviceSelect::If: the vendor baseline for predicates", true}, TESSERA_RUNG(cub_select_if)},
#endif
};

const Variant partition_table[] = {
    {{"partition", "cpu_reference", 0, CPU, REFERENCE, "serial: selected in order from the front, rejected from the back (reverse order, as CUB)", true}, TESSERA_RUNG(cpu_reference)},
    {{"partition", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: per-chunk counts, scan, each thread writes both sides of its chunk", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"partition", "flags_scan_scatter", 2, CUDA, TAUGHT, "flags, exclusive scan, scatter: rejected element i goes to n-1-(i-scan[i]) (seed 003 Compact, both sides)", true}, TESSERA_RUNG(select_flags_scan_scatter)},
    {{"partition", "two_pass", 3, CUDA, TAUGHT, "tile counts, scan, re-read and scatter both sides by a block scan: no flag array (seed 000 hierarchical scan)", true}, TESSERA_RUNG(select_two_pass)},
    {{"partition", "single_pass_wide", 4, CUDA, PRODUCT, "one pass: decoupled look-back over 8-byte tile-count words (count << 2 | flag), 64 polled per round, on 512-thread tiles (32 KiB of input); each tile's selected and reversed rejected elements staged in shared memory, two coalesced runs of writes", true}, TESSERA_RUNG(select_single_pass_wide)},
    {{"partition", "cub_partition_if", 7, CUDA, VENDOR, "cub::DevicePartition::If: the vendor baseline", true}, TESSERA_RUNG(cub_partition_if)},
#endif
};

const Variant unique_table[] = {
    {{"unique", "cpu_reference", 0, CPU, REFERENCE, "serial std::unique semantics: keep x[i] when i == 0 or x[i] != x[i-1]", true}, TESSERA_RUNG(cpu_reference)},
    {{"unique", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: run heads counted per chunk, scan, each thread writes its chunk's heads", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"unique", "flags_scan_scatter", 2, CUDA, TAUGHT, "map to boundary flags x[i] != x[i-1], exclusive scan, scatter: three kernels (seed 003 FindUniq after the sort)", true}, TESSERA_RUNG(select_flags_scan_scatter)},
    {{"unique", "two_pass", 3, CUDA, TAUGHT, "boundary flags counted per tile, tile counts scanned, tiles re-read and scattered: no flag array (seed 000 hierarchical scan)", true}, TESSERA_RUNG(select_two_pass)},
    {{"unique", "single_pass_bulk", 6, CUDA, PRODUCT, "one pass in the scan's warp-specialised persistent look-back (lookback_bulk) on 512-thread tiles: per SM a producer warp bulk-copies (TMA) each tile with its left neighbour into 4 shared buffers, 8 aggregator warps publish each tile's count as it lands, a look-back warp resolves prefixes ahead of 16 consumer warps that select, rank, stage and store (st.global.cs)", true}, TESSERA_RUNG(select_single_pass_bulk)},
    {{"unique", "thrust_unique", 7, CUDA, VENDOR, "thrust::unique_copy (CUDA backend, workspace allocator, caller's stream; returns the count to the host: one sync in the timing)", true}, TESSERA_RUNG(thrust_unique)},
    {{"unique", "cub_select_unique", 7, CUDA, VENDOR, "cub::DeviceSelect::Unique: the vendor baseline", true}, TESSERA_RUNG(cub_select_unique)},
#endif
};

const Variant find_unique_table[] = {
    {{"find_unique", "cpu_reference", 0, CPU, REFERENCE, "serial: a presence table for bytes, sort + unique otherwise (seed 003 FindUniq, sequential)", true}, TESSERA_RUNG(cpu_reference)},
    {{"find_unique", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: a private 256-entry table per thread, OR-ed, then gathered (bytes only)", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"find_unique", "sort_based", 2, CUDA, TAUGHT, "cub::DeviceRadixSort, then boundary flags, tessera's exclusive scan, gather (seed 003 FindUniq: sort, map, scan, map)", true}, TESSERA_RUNG(find_unique_sort_based)},
    {{"find_unique", "flag_table_global", 3, CUDA, TAUGHT, "known domain: each thread writes table[x] = 1 in global memory (benign conflicting writes), scan the 256 flags, gather: no sort (seed 003 Find Unique special case)", true}, TESSERA_RUNG(find_unique_flag_table_global)},
    {{"find_unique", "flag_table_shared", 4, CUDA, PRODUCT, "flag tables private to each thread in shared memory (race-free, conflict-free), 16-byte loads, one global write per value per block, last block scans and gathers: one launch", true}, TESSERA_RUNG(find_unique_flag_table_shared)},
    {{"find_unique", "cub_sort_unique", 5, CUDA, VENDOR, "cub::DeviceRadixSort::SortKeys + cub::DeviceSelect::Unique: the vendor baseline", true}, TESSERA_RUNG(cub_sort_unique)},
#endif
};

const Variant rle_table[] = {
    {{"rle", "cpu_reference", 0, CPU, REFERENCE, "serial: one (key, length) pair per run of equal consecutive elements", true}, TESSERA_RUNG(cpu_reference)},
    {{"rle", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: run heads counted per chunk, scan, each thread encodes the runs that start in its chunk", true}, TESSERA_RUNG(cpu_openmp)},
#if TESSERA_HAVE_CUDA
    {{"rle", "flags_scan_scatter", 2, CUDA, TAUGHT, "head flags, exclusive scan, scatter keys and run starts, lengths from consecutive starts: four kernels (seed 003 unique + scan)", true}, TESSERA_RUNG(rle_flags_scan_scatter)},
    {{"rle", "single_pass_lean", 3, CUDA, PRODUCT, "one pass: look-back carries (runs so far, last run start), packed with its flag in one 16-byte slot read by one relaxed 128-bit load; lengths of runs crossing tiles completed from it", true}, TESSERA_RUNG(rle_single_pass_lean)},
    {{"rle", "cub_run_length_encode", 4, CUDA, VENDOR, "cub::DeviceRunLengthEncode::Encode: the vendor baseline (n < 2^31: CUB's int offsets)", true}, TESSERA_RUNG(cub_run_length_encode)},
#endif
};

#undef TESSERA_RUNG

std::span<const Variant> table_of(Family f) {
  switch (f) {
    case Family::map: return map_table;
    case Family::adjacent_difference: return adjacent_difference_table;
    case Family::compact: return compact_table;
    case Family::partition: return partition_table;
    case Family::unique: return unique_table;
    case Family::find_unique: return find_unique_table;
    case Family::rle: return rle_table;
  }
  return {};
}

}  // namespace

ladder::Ladder<Variant>& variants_ladder(Family f) {
  static auto ladders = [] {
    std::vector<ladder::Ladder<Variant>> all;
    for (Family fam : ALL_FAMILIES) all.emplace_back(table_of(fam));
    return all;
  }();
  return ladders[static_cast<std::size_t>(f)];
}

std::span<const Variant> variants(Family f) { return variants_ladder(f).all(); }

const Variant* find_variant(Family f, std::string_view name) { return variants_ladder(f).find(name); }

}  // namespace tessera::compose_impl
