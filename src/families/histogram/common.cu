// The host side shared by every CUDA histogram run: zeroing the counts,
// the out-of-range count, persistent grid sizes.
#include <cuda_runtime.h>

#include <algorithm>

#include "tessera/blocks/device.cuh"
#include "core/kernel_resources.hpp"
#include "families/histogram/common.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::histogram_impl {

namespace {

constexpr int OUT_OF_RANGE_THREADS = 256;  // one block sums up to MAX_BINS counts; 8 warp partials

// *out = n - sum(counts[0, bins)). Sums fit in uint32: the counts are exact
// and add up to at most n < 2^32.
__global__ __launch_bounds__(OUT_OF_RANGE_THREADS) void histogram_out_of_range_kernel(
    const std::uint32_t* __restrict__ counts, int bins, std::uint32_t n, std::uint32_t* __restrict__ out) {
  __shared__ std::uint32_t warp_sums[OUT_OF_RANGE_THREADS / 32];
  std::uint32_t sum = 0;
  for (int b = threadIdx.x; b < bins; b += OUT_OF_RANGE_THREADS) sum += counts[b];
  sum = __reduce_add_sync(0xffffffffu, sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    std::uint32_t total = 0;
    for (int w = 0; w < OUT_OF_RANGE_THREADS / 32; ++w) total += warp_sums[w];
    *out = n - total;
  }
}

}  // namespace

void zero_counts(const HistogramCall& call) {
  TESSERA_CUDA(cudaMemsetAsync(call.counts, 0, static_cast<std::size_t>(call.spec.bins) * sizeof(std::uint32_t),
                               call.stream));
}

void write_out_of_range(const HistogramCall& call) {
  if (call.spec.dtype == Dtype::u8 || call.spec.n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.out_of_range, 0, sizeof(std::uint32_t), call.stream));
    return;
  }
  launch_kernel("histogram_out_of_range_kernel", histogram_out_of_range_kernel, 1, OUT_OF_RANGE_THREADS, 0, call,
                call.counts, call.spec.bins, static_cast<std::uint32_t>(call.spec.n), call.out_of_range);
}

unsigned persistent_grid(const void* kernel, int block_threads, std::size_t smem_bytes, std::size_t useful,
                         const char* name) {
  const int per_sm = gpu::resident_blocks_per_sm(kernel, block_threads, smem_bytes, name);
  const std::size_t resident = static_cast<std::size_t>(gpu::sm_count()) * static_cast<std::size_t>(per_sm);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(resident, useful)));
}

}  // namespace tessera::histogram_impl
