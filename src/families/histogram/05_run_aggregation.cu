// Step 5 — aggregation (seed 000 "Histogram": Aggregation): a thread
// accumulates runs of the same bin in a register and issues one atomic per
// run instead of one per element.
//
// What it changes over step 4 (copy_per_warp): the update. Each thread keeps
// (bin, count) of its current run (RunAggregator in privatized.cuh); an
// element of another bin flushes the run with one shared-memory atomicAdd of
// its length. The seed's caveats hold: more instructions per element (a
// compare and a select) and more registers, and on uniform data (runs of
// length ~1) it only adds work.
//
// Bottleneck: shared-memory atomics on uniform data (now with extra
// instructions), far fewer atomics on skewed data (a thread's successive
// elements, T apart in memory, repeat the hot bin 64% of the time).
// Expected: slightly below step 4 on uniform bytes, above it on skewed bytes.
#include "families/histogram/privatized.cuh"
#include "families/histogram/cuda_rungs.hpp"

namespace tessera::histogram_impl {

namespace {
constexpr int BLOCK_THREADS = 256;  // as steps 3-4
constexpr int WARP_THREADS = 32;    // step 4's copy per warp
}  // namespace

void run_run_aggregation(const HistogramCall& call) {
  run_privatized<BLOCK_THREADS, WARP_THREADS, true>("run_aggregation", "histogram_run_aggregation_kernel", call);
}
bool supports_run_aggregation(const HistogramSpec& spec) { return privatized_fits<BLOCK_THREADS, WARP_THREADS>(spec); }

}  // namespace tessera::histogram_impl
