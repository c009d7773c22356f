// Step 6 — algorithm cascading (seed 000 "On-the-fly computation / Cyclic
// Partitioning / Algorithm Cascading", "unroll 2/4/8 blocks").
//
// What it changes over step 5: each thread first reduces several elements
// sequentially in registers, then the block runs step 5's early-exit tree
// (gpu::block_reduce_smem_early_exit). Three forms:
//   first_add_during_load  a block covers 2 * blockDim elements; each thread
//                          adds its two elements while loading (half the
//                          blocks, no thread idle at the first level);
//   unroll2/4/8            a block covers UNROLL * blockDim elements ("unroll
//                          N data blocks"); a full tile issues its UNROLL
//                          loads before the first add (gpu::load_tile_strided),
//                          so UNROLL independent loads are in flight per thread;
//   grid_stride            a fixed grid of SMs x resident blocks, each thread
//                          striding over the whole array with GRID_UNROLL loads
//                          per iteration; one more pass reduces the grid
//                          partials.
//
// Bottleneck: memory latency hiding. More bytes in flight per thread lift
// the load throughput (the seed measures 2.6x for unroll 8); what remains is
// the shared-memory tree with a barrier per level and 4-8-byte loads.
// Expected: first_add and unroll2 ~75%, unroll4 and unroll8 at the copy
// bandwidth, grid_stride ~95%; measured 2.26, 2.20, 3.00, 3.05, 2.93 TB/s
// (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include <algorithm>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr unsigned BLOCK_THREADS = 256;  // same block as steps 2-5: only the per-thread work changes
constexpr int GRID_UNROLL = 4;           // grid_stride: loads in flight per thread per iteration (as unroll4)
constexpr std::size_t GRID_MIN_ITEMS_PER_THREAD = 16;  // below this, fewer blocks (partials pass: one block)

// Each thread folds in[i] and in[i + blockDim] before the tree.
template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_first_add_kernel(const typename R::in_t* __restrict__ in,
                                                                         std::size_t n,
                                                                         typename R::acc_t* __restrict__ partials) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * BLOCK_THREADS) + threadIdx.x;
  typename R::acc_t v = R::identity();
  if (i < n) R::add(v, in[i]);
  if (i + BLOCK_THREADS < n) R::add(v, in[i + BLOCK_THREADS]);
  if (!gpu::block_reduce_smem_early_exit<R>(gpu::dynamic_smem<typename R::acc_t>(), v)) return;
  partials[blockIdx.x] = v;  // only thread 0 is left
}

// Each block reduces the tile of UNROLL * BLOCK_THREADS elements it owns.
template <class R, int UNROLL>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_unroll_kernel(const typename R::in_t* __restrict__ in,
                                                                      std::size_t n,
                                                                      typename R::acc_t* __restrict__ partials) {
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * (UNROLL * BLOCK_THREADS);
  typename R::acc_t v = gpu::load_tile_strided<R, UNROLL>(in, n, base, threadIdx.x, BLOCK_THREADS);
  if (!gpu::block_reduce_smem_early_exit<R>(gpu::dynamic_smem<typename R::acc_t>(), v)) return;
  partials[blockIdx.x] = v;
}

// Fixed grid; thread t of block b reads b * BLOCK + t, then strides by the
// whole grid, GRID_UNROLL strides per iteration.
template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_grid_stride_kernel(const typename R::in_t* __restrict__ in,
                                                                           std::size_t n,
                                                                           typename R::acc_t* __restrict__ partials) {
  using in_t = typename R::in_t;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * BLOCK_THREADS;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  typename R::acc_t v = R::identity();
  for (; i + (GRID_UNROLL - 1) * stride < n; i += GRID_UNROLL * stride) {
    in_t x[GRID_UNROLL];
#pragma unroll
    for (int k = 0; k < GRID_UNROLL; ++k) x[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < GRID_UNROLL; ++k) R::add(v, x[k]);
  }
  for (; i < n; i += stride) R::add(v, in[i]);
  if (!gpu::block_reduce_smem_early_exit<R>(gpu::dynamic_smem<typename R::acc_t>(), v)) return;
  partials[blockIdx.x] = v;
}

constexpr std::size_t smem_bytes(std::size_t acc_size) { return BLOCK_THREADS * acc_size; }

struct FirstAddRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, 2 * BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_first_add_kernel", reduce_first_add_kernel<RR>, dim3(blocks), dim3(BLOCK_THREADS),
                   smem_bytes(sizeof(typename RR::acc_t)), stream, items, in, items, partials);
  }
};

template <int UNROLL>
struct UnrollRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, UNROLL * BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_unroll_kernel", reduce_unroll_kernel<RR, UNROLL>, dim3(blocks), dim3(BLOCK_THREADS),
                   smem_bytes(sizeof(typename RR::acc_t)), stream, items, in, items, partials);
  }
};

struct GridStrideRung {
  // SMs x blocks that fit by threads: every block resident at once.
  std::size_t grid = static_cast<std::size_t>(gpu::sm_count()) *
                     std::max(1, gpu::max_threads_per_sm() / static_cast<int>(BLOCK_THREADS));

  std::size_t blocks_for(std::size_t items) const {
    return std::min(grid, detail::div_up(items, BLOCK_THREADS * GRID_MIN_ITEMS_PER_THREAD));
  }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_grid_stride_kernel", reduce_grid_stride_kernel<RR>, dim3(blocks), dim3(BLOCK_THREADS),
                   smem_bytes(sizeof(typename RR::acc_t)), stream, items, in, items, partials);
  }
};

}  // namespace

void run_first_add_during_load(const ReduceCall& call) {
  gpu::run_multipass_rung("first_add_during_load", FirstAddRung{}, call);
}
std::size_t ws_first_add_during_load(const ReduceSpec& spec) {
  return gpu::multipass_rung_workspace(FirstAddRung{}, spec);
}
bool supports_first_add_during_load(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

void run_unroll2(const ReduceCall& call) { gpu::run_multipass_rung("unroll2", UnrollRung<2>{}, call); }
std::size_t ws_unroll2(const ReduceSpec& spec) { return gpu::multipass_rung_workspace(UnrollRung<2>{}, spec); }
bool supports_unroll2(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

void run_unroll4(const ReduceCall& call) { gpu::run_multipass_rung("unroll4", UnrollRung<4>{}, call); }
std::size_t ws_unroll4(const ReduceSpec& spec) { return gpu::multipass_rung_workspace(UnrollRung<4>{}, spec); }
bool supports_unroll4(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

void run_unroll8(const ReduceCall& call) { gpu::run_multipass_rung("unroll8", UnrollRung<8>{}, call); }
std::size_t ws_unroll8(const ReduceSpec& spec) { return gpu::multipass_rung_workspace(UnrollRung<8>{}, spec); }
bool supports_unroll8(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

void run_grid_stride(const ReduceCall& call) { gpu::run_multipass_rung("grid_stride", GridStrideRung{}, call); }
std::size_t ws_grid_stride(const ReduceSpec& spec) {
  if (spec.n == 0) return 0;
  return gpu::multipass_rung_workspace(GridStrideRung{}, spec);
}
bool supports_grid_stride(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
