// The CUDA rungs of the histogram ladder (steps 2-7) and the vendor baseline
// (step 8); ladder.cpp lists them. Each rung provides
//   run_X(call)        enqueue the histogram on call.stream (no allocation, no
//                      host synchronisation: graph-capturable);
//   supports_X(spec)   whether the rung handles the spec (input type, and
//                      whether its shared-memory copies fit).
// Only the vendor baseline needs a workspace (CUB's temporary storage).
// Plain C++: no CUDA headers needed to include this.
#pragma once

#include <cstddef>

#include "families/histogram/contract.hpp"

namespace tessera::histogram_impl {

#define TESSERA_DECLARE_HISTOGRAM_RUNG(name)  \
  void run_##name(const HistogramCall& call); \
  bool supports_##name(const HistogramSpec& spec);

// 02_global_atomics.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(global_contiguous)
TESSERA_DECLARE_HISTOGRAM_RUNG(global_interleaved)
// 03_block_privatized.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(block_privatized)
// 04_subgroup_copies.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(copy_per_warp)
TESSERA_DECLARE_HISTOGRAM_RUNG(copy_per_8_threads)
// 05_run_aggregation.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(run_aggregation)
// 06_coarsened.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(coarsened_vec16)
// 07_packed_counters.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(packed16_atomic)
// 07_hot_bin.cu
TESSERA_DECLARE_HISTOGRAM_RUNG(hot_bin_copies)
// 08_cub_histogram_even.cu, with CUB's temporary storage as its workspace
TESSERA_DECLARE_HISTOGRAM_RUNG(cub_histogram_even)
std::size_t workspace_cub_histogram_even(const HistogramSpec& spec);

#undef TESSERA_DECLARE_HISTOGRAM_RUNG

}  // namespace tessera::histogram_impl
