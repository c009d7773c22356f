// Step 7 — last-warp unroll (seed 000 "Warp Unroll"), made correct for Volta
// and later.
//
// What it changes over step 6: keeps step 6's best load scheme (unroll 8:
// each block owns 8 * blockDim elements, 8 loads in flight per thread,
// gpu::load_tile_strided), and changes the tree: levels run with barriers
// only while more than one warp works (stride > 32); the last six levels
// (64 -> 1) run inside warp 0, unrolled, with no __syncthreads and no loop
// control (gpu::block_reduce_smem_last_warp). The seed's version relies on a
// `volatile` pointer and implicit warp lock-step, which independent thread
// scheduling (Volta+) does not guarantee; here each level reads its partner,
// __syncwarp()s, then writes and __syncwarp()s again.
//
// Bottleneck: DRAM bandwidth for large n, with some instruction overhead left
// in the runtime-bounded tree loop and scalar 4-8-byte loads. Expected: the
// copy bandwidth at large n (unroll 8 already saturates DRAM there; this
// step trims instructions, which shows at smaller n); measured 3.05 TB/s
// (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr unsigned BLOCK_THREADS = 256;  // same block as step 6; must be a power of two >= 64 for the last warp
constexpr int UNROLL = 8;                // step 6's best unroll factor

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_last_warp_unroll_kernel(
    const typename R::in_t* __restrict__ in, std::size_t n, typename R::acc_t* __restrict__ partials) {
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * (UNROLL * BLOCK_THREADS);
  typename R::acc_t v = gpu::load_tile_strided<R, UNROLL>(in, n, base, threadIdx.x, BLOCK_THREADS);
  v = gpu::block_reduce_smem_last_warp<R>(gpu::dynamic_smem<typename R::acc_t>(), v);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

struct LastWarpUnrollRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, UNROLL * BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_last_warp_unroll_kernel", reduce_last_warp_unroll_kernel<RR>, dim3(blocks),
                   dim3(BLOCK_THREADS), BLOCK_THREADS * sizeof(typename RR::acc_t), stream, items, in, items,
                   partials);
  }
};

}  // namespace

void run_last_warp_unroll(const ReduceCall& call) {
  gpu::run_multipass_rung("last_warp_unroll", LastWarpUnrollRung{}, call);
}

std::size_t ws_last_warp_unroll(const ReduceSpec& spec) {
  return gpu::multipass_rung_workspace(LastWarpUnrollRung{}, spec);
}

bool supports_last_warp_unroll(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
