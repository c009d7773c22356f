// Step 4 — interleaved pairs / sequential addressing (seed 000 "Reduce bank
// conflict"; seed 004 "pas de divergence et accès coalescents").
//
// What it changes over step 3: pairs are blockDim/2 apart and the stride
// shrinks (blockDim/2, blockDim/4, ... 1). Active threads are still
// contiguous (tid < stride), and now each warp reads 32 consecutive words:
// no bank conflicts. The tree is gpu::block_reduce_smem_interleaved, which
// the later shared-memory rungs build on.
//
// Bottleneck: half of the threads are idle from the first level on (each
// thread loaded a single element), one barrier per level, and only one
// 4-8-byte load per thread in flight: DRAM latency is poorly hidden.
// Expected: ~30% of copy bandwidth; measured 0.96 TB/s
// (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr unsigned BLOCK_THREADS = 256;  // same block as steps 2-3: only the pairing changes

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_interleaved_kernel(const typename R::in_t* __restrict__ in,
                                                                           std::size_t n,
                                                                           typename R::acc_t* __restrict__ partials) {
  using acc_t = typename R::acc_t;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const acc_t v = i < n ? R::lift(in[i]) : R::identity();
  const acc_t total = gpu::block_reduce_smem_interleaved<R>(gpu::dynamic_smem<acc_t>(), v);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

struct InterleavedRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_interleaved_kernel", reduce_interleaved_kernel<RR>, dim3(blocks), dim3(BLOCK_THREADS),
                   BLOCK_THREADS * sizeof(typename RR::acc_t), stream, items, in, items, partials);
  }
};

}  // namespace

void run_interleaved(const ReduceCall& call) { gpu::run_multipass_rung("interleaved", InterleavedRung{}, call); }

std::size_t ws_interleaved(const ReduceSpec& spec) { return gpu::multipass_rung_workspace(InterleavedRung{}, spec); }

bool supports_interleaved(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
