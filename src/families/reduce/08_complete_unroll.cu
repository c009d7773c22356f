// Step 8 — complete unroll with the block size as a template parameter
// (seed 000 "Complete Unroll"; seed 004 "kernels auto-adaptatifs": the
// reduction is written once for any power-of-two block and only the levels
// the block has are compiled).
//
// What it changes over step 7: BLOCK is a compile-time constant, so the
// tree's every level is unrolled with its `if (BLOCK >= ...)` resolved at
// compile time (gpu::block_reduce_smem_unrolled), the tile offsets are
// constants, and no loop control remains. A runtime switch over
// {64, 128, 256, 512, 1024} picks the instantiation; the registered variant
// uses 256.
//
// Bottleneck: DRAM bandwidth, minus the scalar-load issue rate and the
// barrier-per-level tree at the end of every block. Expected: the copy
// bandwidth at large n; measured 3.04 TB/s (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include <string>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "families/reduce/cuda_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr int DEFAULT_BLOCK_THREADS = 256;  // 8 resident blocks per SM on sm_90, same as steps 2-7
constexpr int UNROLL = 8;                   // step 6's best unroll factor, kept from step 7

template <class R, int BLOCK>
__global__ __launch_bounds__(BLOCK) void reduce_complete_unroll_kernel(const typename R::in_t* __restrict__ in,
                                                                       std::size_t n,
                                                                       typename R::acc_t* __restrict__ partials) {
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * (UNROLL * BLOCK);
  typename R::acc_t v = gpu::load_tile_strided<R, UNROLL>(in, n, base, threadIdx.x, BLOCK);
  v = gpu::block_reduce_smem_unrolled<R, BLOCK>(gpu::dynamic_smem<typename R::acc_t>(), v);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

template <int BLOCK>
struct CompleteUnrollRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, UNROLL * BLOCK); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_complete_unroll_kernel", reduce_complete_unroll_kernel<RR, BLOCK>, dim3(blocks),
                   dim3(BLOCK), BLOCK * sizeof(typename RR::acc_t), stream, items, in, items, partials);
  }
};

[[noreturn]] void bad_block(int block_threads) {
  throw Error("reduce variant 'complete_unroll': block size " + std::to_string(block_threads) +
              " is not one of 64, 128, 256, 512, 1024");
}

// The runtime switch over the instantiations: f(CompleteUnrollRung<B>{}).
template <class F>
void with_block(int block_threads, F&& f) {
  switch (block_threads) {
    case 64: f(CompleteUnrollRung<64>{}); return;
    case 128: f(CompleteUnrollRung<128>{}); return;
    case 256: f(CompleteUnrollRung<256>{}); return;
    case 512: f(CompleteUnrollRung<512>{}); return;
    case 1024: f(CompleteUnrollRung<1024>{}); return;
    default: bad_block(block_threads);
  }
}

}  // namespace

void run_complete_unroll_block(const ReduceCall& call, int block_threads) {
  with_block(block_threads, [&](const auto& rung) { gpu::run_multipass_rung("complete_unroll", rung, call); });
}

std::size_t ws_complete_unroll_block(const ReduceSpec& spec, int block_threads) {
  std::size_t bytes = 0;
  with_block(block_threads, [&](const auto& rung) { bytes = gpu::multipass_rung_workspace(rung, spec); });
  return bytes;
}

void run_complete_unroll(const ReduceCall& call) { run_complete_unroll_block(call, DEFAULT_BLOCK_THREADS); }

std::size_t ws_complete_unroll(const ReduceSpec& spec) { return ws_complete_unroll_block(spec, DEFAULT_BLOCK_THREADS); }

bool supports_complete_unroll(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
