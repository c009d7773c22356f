// Step 3 — neighbored pairs, contiguous active threads (seed 000 "Reduced
// Divergence"; seed 004 "implantation coalescente et peu divergente").
//
// What it changes over step 2: the same pairs are added, but thread tid works
// on index 2 * stride * tid, so the active threads are 0, 1, 2, ... and whole
// warps drop out together: no divergence until fewer than 32 threads remain,
// and no `%`.
//
// Bottleneck: shared-memory bank conflicts. Thread tid touches word
// 2 * stride * tid, a power-of-two stride, so the lanes of a warp pile onto
// a few banks (an n-way conflict serialises the access n times). Expected:
// ~20-25% of copy bandwidth; measured 0.67 TB/s
// (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr unsigned BLOCK_THREADS = 256;  // same block as step 2: only the index mapping changes

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_neighbored_contiguous_kernel(
    const typename R::in_t* __restrict__ in, std::size_t n, typename R::acc_t* __restrict__ partials) {
  using acc_t = typename R::acc_t;
  acc_t* s = gpu::dynamic_smem<acc_t>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? R::lift(in[i]) : R::identity();
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;  // < 2 * blockDim.x: no overflow
    if (index < blockDim.x) s[index] = R::combine(s[index], s[index + stride]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}

struct NeighboredContiguousRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_neighbored_contiguous_kernel", reduce_neighbored_contiguous_kernel<RR>, dim3(blocks),
                   dim3(BLOCK_THREADS), BLOCK_THREADS * sizeof(typename RR::acc_t), stream, items, in, items,
                   partials);
  }
};

}  // namespace

void run_neighbored_contiguous(const ReduceCall& call) {
  gpu::run_multipass_rung("neighbored_contiguous", NeighboredContiguousRung{}, call);
}

std::size_t ws_neighbored_contiguous(const ReduceSpec& spec) {
  return gpu::multipass_rung_workspace(NeighboredContiguousRung{}, spec);
}

bool supports_neighbored_contiguous(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
