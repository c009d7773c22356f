// Step 2 — neighbored pairs, divergent (seed 000 "Divergence in Parallel
// Reduction"; seed 004 "Optimisation du schéma de réduction", first scheme).
//
// What it changes over step 1 (the OpenMP CPU reduction): the first GPU
// version. Each thread loads one element into shared memory (identity past
// n); a tree then adds neighbours with a growing stride, the active threads
// being those with tid % (2 * stride) == 0. One acc_t partial per block;
// further passes of the same kernel reduce the partials (multipass.cuh).
//
// Bottleneck: the tree, not DRAM. Active threads are scattered across all
// warps, so every warp stays scheduled for every level while only a few of
// its lanes work (divergence), and `%` by a variable is a slow integer
// sequence. Expected: ~15% of copy bandwidth; measured 0.42 TB/s
// (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr unsigned BLOCK_THREADS = 256;  // the seed's block; a power of two for the pairwise tree

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_neighbored_divergent_kernel(
    const typename R::in_t* __restrict__ in, std::size_t n, typename R::acc_t* __restrict__ partials) {
  using acc_t = typename R::acc_t;
  acc_t* s = gpu::dynamic_smem<acc_t>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? R::lift(in[i]) : R::identity();
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] = R::combine(s[tid], s[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}

struct NeighboredDivergentRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_neighbored_divergent_kernel", reduce_neighbored_divergent_kernel<RR>, dim3(blocks),
                   dim3(BLOCK_THREADS), BLOCK_THREADS * sizeof(typename RR::acc_t), stream, items, in, items,
                   partials);
  }
};

}  // namespace

void run_neighbored_divergent(const ReduceCall& call) {
  gpu::run_multipass_rung("neighbored_divergent", NeighboredDivergentRung{}, call);
}

std::size_t ws_neighbored_divergent(const ReduceSpec& spec) {
  return gpu::multipass_rung_workspace(NeighboredDivergentRung{}, spec);
}

bool supports_neighbored_divergent(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
