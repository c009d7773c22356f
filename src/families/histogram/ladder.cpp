// The histogram ladder, one line per variant: the only place a variant's
// name, step, role and `adds` are written. CPU rungs, then the CUDA rungs and
// the vendor baseline (CUDA builds only); the lab adds its tuning rows
// (lab/histogram/) at start-up. Integer counts: every variant gives the same
// counts run after run.
#include <span>

#include "families/histogram/contract.hpp"
#include "families/histogram/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/histogram/cuda_rungs.hpp"
#endif

namespace tessera::histogram_impl {

namespace {

using namespace ladder::roles;

bool supports_any(const HistogramSpec& s) { return s.dtype == Dtype::u8 || s.dtype == Dtype::f32; }
std::size_t no_workspace(const HistogramSpec&) { return 0; }

#if TESSERA_HAVE_CUDA
#define TESSERA_RUNG(name) supports_##name, no_workspace, run_##name
#endif

const HistogramVariant TABLE[] = {
    {{"histogram", "cpu_reference", 0, CPU, REFERENCE, "serial loop, one counter per bin (seed 000 Histogram: the sequential algorithm)", true}, supports_any, no_workspace, cpu::run_reference},
    {{"histogram", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: a private histogram per thread, no atomics, merged bin by bin (seed 000 Histogram: privatization)", true}, supports_any, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"histogram", "global_contiguous", 2, CUDA, TAUGHT, "a contiguous section per thread, one global atomicAdd per element: uncoalesced loads (seed 000 Histogram: sectioned partitioning)", true}, TESSERA_RUNG(global_contiguous)},
    {{"histogram", "global_interleaved", 2, CUDA, TAUGHT, "interleaved (grid-stride) elements per thread, one global atomicAdd per element: coalesced loads (seed 000 Histogram: simple memory coalesced histo_kernel)", true}, TESSERA_RUNG(global_interleaved)},
    {{"histogram", "block_privatized", 3, CUDA, TAUGHT, "one shared-memory histogram per block, shared atomics, merged by one global atomic per bin (seed 000 Histogram: privatization, barrier bug fixed)", true}, TESSERA_RUNG(block_privatized)},
    {{"histogram", "copy_per_warp", 4, CUDA, TAUGHT, "a private shared-memory copy per warp, odd stride between copies: less same-address contention (seed 000 Histogram: sub-group privatization)", true}, TESSERA_RUNG(copy_per_warp)},
    {{"histogram", "copy_per_8_threads", 4, CUDA, TAUGHT, "a private shared-memory copy per 8 threads, as the seed says: a warp's equal bins split 4 ways (seed 000 Histogram: sub-group privatization)", true}, TESSERA_RUNG(copy_per_8_threads)},
    {{"histogram", "run_aggregation", 5, CUDA, TAUGHT, "per-warp copies + a thread accumulates runs of one bin in a register, one atomic per run (seed 000 Histogram: aggregation)", true}, TESSERA_RUNG(run_aggregation)},
    {{"histogram", "coarsened_vec16", 6, CUDA, TAUGHT, "persistent grid, 16-byte loads, next tile in flight, aggregation over adjacent elements (seed 000 Histogram + thread coarsening)", true}, TESSERA_RUNG(coarsened_vec16)},
    {{"histogram", "packed16_atomic", 7, CUDA, PRODUCT, "lane-private 16-bit counters packed 2 per word: no bank conflict, no contention, fire-and-forget shared atomics, 12 warps/SM", true}, TESSERA_RUNG(packed16_atomic)},
    {{"histogram", "hot_bin_copies", 7, CUDA, PRODUCT, "warp-voted hot bin counted in registers + shared copies + 16-byte loads: many bins, skewed data", true}, TESSERA_RUNG(hot_bin_copies)},
    {{"histogram", "cub_histogram_even", 8, CUDA, VENDOR, "cub::DeviceHistogram::HistogramEven (bytes: 257 int levels; floats: bins + 1 float levels): the vendor baseline", true}, supports_cub_histogram_even, workspace_cub_histogram_even, run_cub_histogram_even},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<HistogramVariant>& variants_ladder() {
  static ladder::Ladder<HistogramVariant> ladder{std::span<const HistogramVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::histogram_impl
