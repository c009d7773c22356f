// The CUDA histogram ladder, one line per variant: name, step, kind, what the
// step adds (and the seed section it comes from), determinism, and the
// supports / run functions of its rung (rungs.hpp). Integer counts: every
// variant gives the same counts run after run.
#if TESSERA_HAVE_CUDA  // the CUDA rows exist in CUDA builds only
#include <array>
#include <span>

#include "families/histogram/cuda_rungs.hpp"
#include "families/histogram/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::histogram_impl {

using namespace ladder::roles;

namespace {

std::size_t no_workspace(const HistogramSpec&) { return 0; }

#define TESSERA_RUNG(name) supports_##name, no_workspace, run_##name

constexpr Backend CUDA = Backend::cuda;

const std::array<HistogramVariant, 11> cuda_table{{
    {{"histogram", "global_contiguous", 2, CUDA, TAUGHT, "a contiguous section per thread, one global atomicAdd per element: uncoalesced loads (seed 000 Histogram: sectioned partitioning)", true}, TESSERA_RUNG(global_contiguous)},
    {{"histogram", "global_interleaved", 2, CUDA, TAUGHT, "interleaved (grid-stride) elements per thread, one global atomicAdd per element: coalesced loads (seed 000 Histogram: simple memory coalesced histo_kernel)", true}, TESSERA_RUNG(global_interleaved)},
    {{"histogram", "block_privatized", 3, CUDA, TAUGHT, "one shared-memory histogram per block, shared atomics, merged by one global atomic per bin (seed 000 Histogram: privatization, barrier bug fixed)", true}, TESSERA_RUNG(block_privatized)},
    {{"histogram", "copy_per_warp", 4, CUDA, TAUGHT, "a private shared-memory copy per warp, odd stride between copies: less same-address contention (seed 000 Histogram: sub-group privatization)", true}, TESSERA_RUNG(copy_per_warp)},
    {{"histogram", "copy_per_8_threads", 4, CUDA, TAUGHT, "a private shared-memory copy per 8 threads, as the seed says: a warp's equal bins split 4 ways (seed 000 Histogram: sub-group privatization)", true}, TESSERA_RUNG(copy_per_8_threads)},
    {{"histogram", "run_aggregation", 5, CUDA, TAUGHT, "per-warp copies + a thread accumulates runs of one bin in a register, one atomic per run (seed 000 Histogram: aggregation)", true}, TESSERA_RUNG(run_aggregation)},
    {{"histogram", "coarsened_vec16", 6, CUDA, TAUGHT, "persistent grid, 16-byte loads, next tile in flight, aggregation over adjacent elements (seed 000 Histogram + thread coarsening)", true}, TESSERA_RUNG(coarsened_vec16)},
    {{"histogram", "packed16_atomic", 7, CUDA, PRODUCT, "lane-private 16-bit counters packed 2 per word: no bank conflict, no contention, fire-and-forget shared atomics, 12 warps/SM", true}, TESSERA_RUNG(packed16_atomic)},
    {{"histogram", "packed8_atomic", 7, CUDA, PRODUCT, "lane-private 8-bit counters packed 4 per word, 24 warps/SM, flushed every 240 bytes a thread", true}, TESSERA_RUNG(packed8_atomic)},
    {{"histogram", "packed8_rmw", 7, CUDA, PRODUCT, "lane-private 8-bit counters updated by plain load/add/store (no atomic unit), 24 warps/SM", true}, TESSERA_RUNG(packed8_rmw)},
    {{"histogram", "hot_bin_copies", 7, CUDA, PRODUCT, "warp-voted hot bin counted in registers + shared copies + 16-byte loads: many bins, skewed data", true}, TESSERA_RUNG(hot_bin_copies)},
}};

#undef TESSERA_RUNG

}  // namespace

std::span<const HistogramVariant> cuda_variants() { return cuda_table; }

}  // namespace tessera::histogram_impl

#endif  // TESSERA_HAVE_CUDA
