// Step 2 — global atomics, two thread-to-data mappings (seed 000 "Histogram":
// the partitioning that follows the sequential loop, then "Simple Memory
// Coalesced").
//
// What it changes over step 1 (OpenMP, private histograms): the first GPU
// version. Every thread adds 1 to counts[bin] in global memory with
// atomicAdd for each of its elements; no privatization at all.
//   global_contiguous   thread g counts the contiguous section
//                       [g * chunk, (g + 1) * chunk): at each step the 32
//                       lanes of a warp read 32 different sections, so one
//                       warp load touches 32 cache lines (uncoalesced);
//   global_interleaved  the seed's histo_kernel: thread g counts g, g + T,
//                       g + 2T, ... (T threads in all): a warp reads 32
//                       consecutive elements, one or two lines (coalesced).
// Both run a fixed grid of every resident block (SMs x 8 blocks of 256).
//
// Bottleneck: the atomics in L2. All 2^30 updates of a 2^30-byte input go to
// 256 addresses (1 KB, a few L2 slices): bytes move at the rate of
// same-slice atomics, and on skewed data 80% of them hit one address, which
// serialises. Expected: a few % of copy on uniform bytes, well under 1% on
// skewed bytes; the contiguous mapping no faster (the atomics, not the
// loads, bound it).
#include <cuda_runtime.h>

#include "families/histogram/common.cuh"
#include "families/histogram/cuda_rungs.hpp"

namespace tessera::histogram_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // the seed's block; 8 blocks fill the 2048 thread slots of an sm_90 SM

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void histogram_global_contiguous_kernel(const T* __restrict__ in,
                                                                                   std::size_t n, rule_t<T> rule,
                                                                                   std::uint32_t* __restrict__ counts) {
  const std::size_t nthreads = static_cast<std::size_t>(gridDim.x) * BLOCK_THREADS;
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const std::size_t chunk = (n + nthreads - 1) / nthreads;
  const std::size_t begin = g * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  for (std::size_t i = begin; i < end; ++i) {
    const int b = rule.bin(in[i]);
    if (b >= 0) atomicAdd(counts + b, 1u);
  }
}

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void histogram_global_interleaved_kernel(const T* __restrict__ in,
                                                                                    std::size_t n, rule_t<T> rule,
                                                                                    std::uint32_t* __restrict__ counts) {
  const std::size_t nthreads = static_cast<std::size_t>(gridDim.x) * BLOCK_THREADS;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x; i < n; i += nthreads) {
    const int b = rule.bin(in[i]);
    if (b >= 0) atomicAdd(counts + b, 1u);
  }
}

template <class T>
void run_global(const HistogramCall& call, void (*kernel)(const T*, std::size_t, rule_t<T>, std::uint32_t*),
                const char* name) {
  const std::size_t n = call.spec.n;
  zero_counts(call);
  if (n > 0) {
    const unsigned grid =
        persistent_grid(reinterpret_cast<const void*>(kernel), BLOCK_THREADS, 0, detail::div_up(n, BLOCK_THREADS), name);
    launch_kernel(name, kernel, grid, BLOCK_THREADS, 0, call, static_cast<const T*>(call.in), n,
                  rule_of<T>(call.spec), call.counts);
  }
  write_out_of_range(call);
}

}  // namespace

void run_global_contiguous(const HistogramCall& call) {
  with_input_type("global_contiguous", call.spec, [&]<class T>() {
    run_global<T>(call, histogram_global_contiguous_kernel<T>, "histogram_global_contiguous_kernel");
  });
}
bool supports_global_contiguous(const HistogramSpec& spec) { return input_type_supported(spec); }

void run_global_interleaved(const HistogramCall& call) {
  with_input_type("global_interleaved", call.spec, [&]<class T>() {
    run_global<T>(call, histogram_global_interleaved_kernel<T>, "histogram_global_interleaved_kernel");
  });
}
bool supports_global_interleaved(const HistogramSpec& spec) { return input_type_supported(spec); }

}  // namespace tessera::histogram_impl
