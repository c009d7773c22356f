// Step 4 — sub-group privatization: several private copies per block (seed
// 000 "Histogram": "8 threads share a private histogram on shared memory
// rather than all threads within the block, to keep the atomic bandwidth").
//
// What it changes over step 3 (one copy per block): a copy per warp
// (copy_per_warp, 8 copies per block of 256) or per 8 threads
// (copy_per_8_threads, 32 copies): same-address updates from different
// warps no longer meet in one copy, and with 8-thread groups a warp spreads
// over 4 copies, so the lanes that pick the same bin (the common case on
// skewed data) are split 4 ways. The price: copies x bins words of shared
// memory to zero and to merge (32 copies of 4096 bins do not fit: that rung
// declines them), and fewer resident blocks when the copies are large.
//
// Bottleneck: still shared-memory atomics with random-bank conflicts on
// uniform data; contention on skewed data drops. Expected: about step 3 on
// uniform bytes, faster than it on skewed bytes.
#include "families/histogram/privatized.cuh"
#include "families/histogram/cuda_rungs.hpp"

namespace tessera::histogram_impl {

namespace {
constexpr int BLOCK_THREADS = 256;   // as step 3
constexpr int WARP_THREADS = 32;     // one copy per warp
constexpr int GROUP_THREADS = 8;     // the seed's sub-group
}  // namespace

void run_copy_per_warp(const HistogramCall& call) {
  run_privatized<BLOCK_THREADS, WARP_THREADS, false>("copy_per_warp", "histogram_copy_per_warp_kernel", call);
}
bool supports_copy_per_warp(const HistogramSpec& spec) { return privatized_fits<BLOCK_THREADS, WARP_THREADS>(spec); }

void run_copy_per_8_threads(const HistogramCall& call) {
  run_privatized<BLOCK_THREADS, GROUP_THREADS, false>("copy_per_8_threads", "histogram_copy_per_8_threads_kernel",
                                                      call);
}
bool supports_copy_per_8_threads(const HistogramSpec& spec) {
  return privatized_fits<BLOCK_THREADS, GROUP_THREADS>(spec);
}

}  // namespace tessera::histogram_impl
