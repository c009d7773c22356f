// Shared-memory privatization, the building block of steps 3-6: a block
// keeps COPIES private histograms in shared memory (one per COPY_THREADS
// consecutive threads), counts into them with shared-memory atomics, and adds
// them into the global counts once at the end (one global atomic per bin per
// block instead of one per element).
//
//   step 3  COPY_THREADS = BLOCK   one copy per block
//   step 4  COPY_THREADS = 32 / 8  one copy per warp / per 8 threads
//   step 5  + RunAggregator        runs of one bin become one atomic
//   step 6  the same copies and aggregation under the vector sweep
//
// The seed's privatized kernel puts its __syncthreads() and its counting loop
// inside the loop that zeroes the bins: a barrier inside a loop whose trip
// count differs between threads (undefined behaviour), and the input counted
// once per zeroing pass. Here the three phases are separate: zero every copy,
// one barrier; count; one barrier; merge.
//
// Copies are `bins + 1` words apart: with an odd stride the same bin of
// different copies falls in different banks, so lanes of one warp that use
// different copies (COPY_THREADS < 32) do not conflict on equal bins.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/kernel_resources.hpp"
#include "families/histogram/common.cuh"

namespace tessera::histogram_impl {

// Private words between two copies.
constexpr int copy_stride(int copies, int bins) { return copies == 1 ? bins : bins + 1; }

constexpr std::size_t copies_smem_bytes(int copies, int bins) {
  return static_cast<std::size_t>(copies) * static_cast<std::size_t>(copy_stride(copies, bins)) * sizeof(std::uint32_t);
}

// Aggregation (seed 000 "Aggregation"): a thread keeps the bin it saw last and
// how many times in a row; a different bin (or the end) turns the run into one
// atomicAdd of its length. Dropped values (bin -1) neither count nor break a
// run.
struct RunAggregator {
  int bin = -1;
  std::uint32_t count = 0;

  // Written with selects around one predicated atomic rather than nested
  // branches: the unrolled vector code of step 6 stays branch-free (nested
  // branches made the compiler spill).
  __device__ __forceinline__ void add(int b, std::uint32_t* copy) {
    const bool counted = b >= 0;
    const bool new_run = counted && b != bin;
    if (new_run && count != 0) atomicAdd(copy + bin, count);
    count = new_run ? 1u : count + (counted ? 1u : 0u);
    bin = new_run ? b : bin;
  }
  __device__ __forceinline__ void flush(std::uint32_t* copy) {
    if (count != 0) atomicAdd(copy + bin, count);
    count = 0;
  }
};

// Steps 3-5: grid-stride loop over scalar elements (coalesced, as step 2's
// interleaved mapping), counted into the thread's shared-memory copy.
template <class T, int BLOCK, int COPY_THREADS, bool AGGREGATE>
__global__ __launch_bounds__(BLOCK) void histogram_privatized_kernel(const T* __restrict__ in, std::size_t n,
                                                                    rule_t<T> rule, std::uint32_t* __restrict__ counts) {
  static_assert(BLOCK % COPY_THREADS == 0, "whole groups of COPY_THREADS threads");
  constexpr int COPIES = BLOCK / COPY_THREADS;
  const int bins = rule.bins;
  const int stride = copy_stride(COPIES, bins);
  std::uint32_t* s = smem_counters();
  zero_smem(s, static_cast<std::size_t>(COPIES) * stride);

  std::uint32_t* mine = s + (threadIdx.x / COPY_THREADS) * stride;
  const std::size_t nthreads = static_cast<std::size_t>(gridDim.x) * BLOCK;
  RunAggregator run;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK + threadIdx.x; i < n; i += nthreads) {
    const int b = rule.bin(in[i]);
    if constexpr (AGGREGATE) {
      run.add(b, mine);
    } else {
      if (b >= 0) atomicAdd(mine + b, 1u);
    }
  }
  if constexpr (AGGREGATE) run.flush(mine);
  __syncthreads();
  merge_copies_to_global(s, COPIES, stride, bins, counts);
}

template <int BLOCK, int COPY_THREADS>
bool privatized_fits(const HistogramSpec& spec) {
  return input_type_supported(spec) && copies_smem_bytes(BLOCK / COPY_THREADS, spec.bins) <= SMEM_LIMIT;
}

template <int BLOCK, int COPY_THREADS, bool AGGREGATE>
void run_privatized(const char* variant, const char* kernel_name, const HistogramCall& call) {
  with_input_type(variant, call.spec, [&]<class T>() {
    if (!privatized_fits<BLOCK, COPY_THREADS>(call.spec))
      throw Error(std::string("histogram variant '") + variant + "': " + std::to_string(call.spec.bins) +
                  " bins do not fit its shared-memory copies");
    const std::size_t n = call.spec.n;
    zero_counts(call);
    if (n > 0) {
      auto* kernel = histogram_privatized_kernel<T, BLOCK, COPY_THREADS, AGGREGATE>;
      const std::size_t smem = copies_smem_bytes(BLOCK / COPY_THREADS, call.spec.bins);
      const unsigned grid =
          persistent_grid(reinterpret_cast<const void*>(kernel), BLOCK, smem, detail::div_up(n, BLOCK), kernel_name);
      launch_kernel(kernel_name, kernel, grid, BLOCK, smem, call, static_cast<const T*>(call.in), n,
                    rule_of<T>(call.spec), call.counts);
    }
    write_out_of_range(call);
  });
}

}  // namespace tessera::histogram_impl
