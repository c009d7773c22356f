// Step 3 — shared-memory privatization per block (seed 000 "Histogram":
// Privatization, with its barrier bug fixed: see privatized.cuh).
//
// What it changes over step 2 (interleaved global atomics): each block counts
// into its own histogram in shared memory with shared-memory atomics and adds
// it into the global counts once at the end: 2^30 global atomics become
// bins x blocks. Same coalesced grid-stride loop over scalar elements, same
// persistent grid (resident blocks).
//
// Bottleneck: shared-memory atomic throughput. A warp's 32 atomics to random
// bins fall in random banks: about 3.5 distinct words share the busiest bank,
// so one warp instruction takes several shared-memory cycles; with 8 warps
// of every block on one copy, same-address updates from different warps
// queue too. On skewed data the lanes of a warp mostly hit one address, which
// the hardware merges. Scalar 1-byte loads cap the rate as well. Expected:
// ~30% of copy on uniform bytes, more on skewed; 10-50x step 2.
#include "families/histogram/privatized.cuh"
#include "families/histogram/cuda_rungs.hpp"

namespace tessera::histogram_impl {

namespace {
constexpr int BLOCK_THREADS = 256;  // the seed's block; 8 blocks per sm_90 SM while shared memory allows
}  // namespace

void run_block_privatized(const HistogramCall& call) {
  run_privatized<BLOCK_THREADS, BLOCK_THREADS, false>("block_privatized", "histogram_block_privatized_kernel", call);
}
bool supports_block_privatized(const HistogramSpec& spec) {
  return privatized_fits<BLOCK_THREADS, BLOCK_THREADS>(spec);
}

}  // namespace tessera::histogram_impl
