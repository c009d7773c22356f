// Step 9 — warp shuffle (seed 000 "Warp Unroll", its warp-shuffle part: the
// __shfl_xor_sync butterfly; "Faster Parallel Reductions on Kepler").
//
// What it changes over step 8: keeps step 8's cascaded loads (unroll 8,
// compile-time BLOCK = 256) and replaces the shared-memory tree: each warp
// reduces its 32 values in registers with shuffles, lane 0 writes one
// partial per warp to shared memory, and warp 0 reduces those BLOCK / 32
// partials with shuffles again (gpu::block_reduce_shuffle). One barrier per
// block instead of one per level, and BLOCK / 32 accumulators of shared
// memory instead of BLOCK. Two variants of the warp level:
//   warp_shuffle_down  __shfl_down_sync tree (total in lane 0);
//   warp_shuffle_xor   __shfl_xor_sync butterfly (total in every lane).
//
// Bottleneck: DRAM bandwidth; what is left is the scalar 4-8-byte load issue
// rate and the tail of each block (its last tree and the partial-pass
// launches). Expected: the copy bandwidth at large n; measured 3.04 TB/s
// for both (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "tessera/blocks/warp_reduce.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // step 8's default block
constexpr int UNROLL = 8;           // step 8's loads

template <class R, gpu::WarpShuffle S>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_warp_shuffle_kernel(const typename R::in_t* __restrict__ in,
                                                                            std::size_t n,
                                                                            typename R::acc_t* __restrict__ partials) {
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * (UNROLL * BLOCK_THREADS);
  typename R::acc_t v = gpu::load_tile_strided<R, UNROLL>(in, n, base, threadIdx.x, BLOCK_THREADS);
  v = gpu::block_reduce_shuffle<R, BLOCK_THREADS, S>(gpu::dynamic_smem<typename R::acc_t>(), v);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

template <gpu::WarpShuffle S>
struct WarpShuffleRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, UNROLL * BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch(S == gpu::WarpShuffle::down ? "reduce_warp_shuffle_down_kernel" : "reduce_warp_shuffle_xor_kernel",
                   reduce_warp_shuffle_kernel<RR, S>, dim3(blocks), dim3(BLOCK_THREADS),
                   (BLOCK_THREADS / gpu::WARP_SIZE) * sizeof(typename RR::acc_t), stream, items, in, items, partials);
  }
};

using DownRung = WarpShuffleRung<gpu::WarpShuffle::down>;
using XorRung = WarpShuffleRung<gpu::WarpShuffle::xor_butterfly>;

}  // namespace

void run_warp_shuffle_down(const ReduceCall& call) { gpu::run_multipass_rung("warp_shuffle_down", DownRung{}, call); }
std::size_t ws_warp_shuffle_down(const ReduceSpec& spec) { return gpu::multipass_rung_workspace(DownRung{}, spec); }
bool supports_warp_shuffle_down(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

void run_warp_shuffle_xor(const ReduceCall& call) { gpu::run_multipass_rung("warp_shuffle_xor", XorRung{}, call); }
std::size_t ws_warp_shuffle_xor(const ReduceSpec& spec) { return gpu::multipass_rung_workspace(XorRung{}, spec); }
bool supports_warp_shuffle_xor(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
