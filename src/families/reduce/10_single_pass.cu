// Step 10 — tessera's reduction: one persistent, single-pass kernel.
//
// What it changes over step 9 (cascaded scalar loads + shuffle block reduce,
// then more kernel passes over the partials):
//   - a persistent grid (SMs x resident blocks from the occupancy API, fewer
//     for small n) with a grid-stride loop instead of one block per tile;
//   - 16-byte vector loads (float4 / double2 / int4 / longlong2): the
//     unaligned head up to the first 128-byte boundary and the tail are read
//     with scalar loads, so any element pointer (d_x + 1) works;
//   - UNROLL independent accumulators per thread, one per vector load in
//     flight, so compensated states (Kahan, double-float) are not one long
//     dependency chain;
//   - no second pass: each block writes its partial, __threadfence()s and
//     takes a ticket; the block that takes the last ticket combines all the
//     partials in fixed block order (thread t folds blocks t, t + BLOCK, ...,
//     then the fixed shuffle tree) and writes R::finish to the output. For a
//     given grid the result is bitwise reproducible. The ticket is zeroed by
//     cudaMemsetAsync at the start of every multi-block run (workspace
//     contents are undefined on entry) and reset by the last block; a
//     one-block grid (small n) writes its result directly, one launch.
//
// Bottleneck: DRAM read bandwidth only — 16-byte loads cut the load
// instructions 4x (floats), 4 x 16 B in flight per thread at full occupancy
// is about 3x what Little's law asks on H100, and the one-launch design
// removes the partial passes. Expected: the copy bandwidth (~91% of the
// 3.35 TB/s HBM3 peak), at least cub::DeviceReduce, with Kahan and
// double-float sums within 10% of the plain float sum (their extra flops hide
// under the memory time). Measured on H100, 2^28 floats, through run()
// (three runs): float 3.04-3.08 TB/s (CUB 3.00-3.02), Kahan and double-float
// within 0.5% of float, d_x + 1 2.98-3.01 (CUB 2.79-2.81); 2^24 floats
// 2.04-2.08 TB/s (CUB 1.94-1.98); 2^10 floats 8 us (CUB 7.5-8.7).
// Sweep (BLOCK 128/256/512, UNROLL 2/4/8, streaming or L1-no-allocate loads,
// grid 0.25x-2x resident): BLOCK 256, UNROLL 4, plain loads, 1x was best.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "families/reduce/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::reduce_impl {

namespace {

// 256 threads: 8 warp partials for the block reduce, and 8 blocks fill the
// 2048 thread slots of an sm_90 SM when the kernel stays at <= 32 registers.
constexpr int BLOCK_THREADS = 256;
// Vector loads in flight per thread per iteration (and accumulators): 4 x 16 B
// x 2048 threads = 128 KiB per SM, ~3x the bytes in flight H100 needs.
constexpr int UNROLL = 4;
// The vector body starts on a 128-byte line: a warp's 512-byte load then
// touches 4 lines instead of 5 (d_x + 1 inputs); the head has < 32 elements.
constexpr std::size_t BODY_ALIGN = 128;

using gpu::Vec16;

// Acc_t partial loads that bypass L1 (ld.global.cg): the last block must see
// the other blocks' stores, which reached L2, not a stale L1 line.
template <class T>
__device__ __forceinline__ T load_cg(const T* p) {
  if constexpr (std::is_same_v<T, KahanState> || std::is_same_v<T, DFloatState>) {
    static_assert(sizeof(T) == sizeof(float2));
    const float2 v = __ldcg(reinterpret_cast<const float2*>(p));  // 8-byte aligned: 256-B base, 8-B elements
    return T{v.x, v.y};
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return static_cast<T>(__ldcg(reinterpret_cast<const unsigned long long*>(p)));
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return static_cast<T>(__ldcg(reinterpret_cast<const long long*>(p)));
  } else {
    return __ldcg(p);  // float, double, int
  }
}

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_single_pass_kernel(const typename R::in_t* __restrict__ in,
                                                                           std::size_t n,
                                                                           typename R::acc_t* __restrict__ partials,
                                                                           unsigned int* __restrict__ ticket,
                                                                           typename R::out_t* __restrict__ out) {
  using T = typename R::in_t;
  using acc_t = typename R::acc_t;
  constexpr int VEC = Vec16<T>::N;
  constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK_THREADS) * UNROLL;  // vectors per block-iteration

  const unsigned tid = threadIdx.x;
  const std::size_t gthread = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + tid;
  const std::size_t nthreads = static_cast<std::size_t>(gridDim.x) * BLOCK_THREADS;
  const gpu::VecSplit split = gpu::split_for_vec16<BODY_ALIGN>(in, n);

  acc_t acc[UNROLL];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k) acc[k] = R::identity();

  // Scalar head: fewer than BODY_ALIGN / sizeof(T) elements before the body.
  if (gthread < split.head) R::add(acc[0], in[gthread]);

  // Body: whole tiles of TILE vectors, grid-stride, UNROLL loads in flight.
  const T* __restrict__ body = in + split.head;
  const std::size_t full_tiles = split.vectors / TILE;
  for (std::size_t t = blockIdx.x; t < full_tiles; t += gridDim.x) {
    const T* p = body + (t * TILE + tid) * VEC;
    T x[UNROLL][VEC];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) gpu::load_vec16(p + static_cast<std::size_t>(k) * BLOCK_THREADS * VEC, x[k]);
#pragma unroll
    for (int k = 0; k < UNROLL; ++k)
#pragma unroll
      for (int j = 0; j < VEC; ++j) R::add(acc[k], x[k][j]);
  }
  // Vectors after the last whole tile (fewer than TILE), spread over the grid.
  for (std::size_t v = full_tiles * TILE + gthread; v < split.vectors; v += nthreads) {
    T x[VEC];
    gpu::load_vec16(body + v * VEC, x);
#pragma unroll
    for (int j = 0; j < VEC; ++j) R::add(acc[0], x[j]);
  }
  // Scalar tail: fewer than VEC elements.
  if (split.tail + gthread < n) R::add(acc[0], in[split.tail + gthread]);

  acc_t v = acc[0];
#pragma unroll
  for (int k = 1; k < UNROLL; ++k) v = R::combine(v, acc[k]);
  acc_t* scratch = gpu::dynamic_smem<acc_t>();
  v = gpu::block_reduce_shuffle<R, BLOCK_THREADS>(scratch, v);

  if (gridDim.x == 1) {  // small n: a single block needs no ticket
    if (tid == 0) *out = R::finish(v);
    return;
  }

  // Publish the block's partial, then take a ticket: store -> fence -> atomic.
  __shared__ bool is_last_block;
  if (tid == 0) {
    partials[blockIdx.x] = v;
    __threadfence();
    const unsigned int taken = atomicAdd(ticket, 1u);
    is_last_block = taken == gridDim.x - 1;
  }
  __syncthreads();  // also ends every read of `scratch` by the first reduce
  if (!is_last_block) return;

  // Last block: every other block's partial is visible (its fence preceded its
  // ticket, which thread 0 observed before the barrier). Combine in fixed
  // block order, loading through L2.
  __threadfence();
  acc_t w = R::identity();
  for (unsigned b = tid; b < gridDim.x; b += BLOCK_THREADS) w = R::combine(w, load_cg(partials + b));
  w = gpu::block_reduce_shuffle<R, BLOCK_THREADS>(scratch, w);
  if (tid == 0) {
    *out = R::finish(w);
    *ticket = 0u;  // ready for the next launch (the run also zeroes it first)
  }
}

constexpr std::size_t smem_bytes(std::size_t acc_size) { return (BLOCK_THREADS / gpu::WARP_SIZE) * acc_size; }

// Resident blocks per SM of the kernel for R, from the occupancy API (the
// same on every device of one architecture; queried once per reducer).
template <class R>
int blocks_per_sm() {
  static std::atomic<int> cached{0};
  int value = cached.load(std::memory_order_relaxed);
  if (value == 0) {
    TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&value, reduce_single_pass_kernel<R>, BLOCK_THREADS,
                                                               smem_bytes(sizeof(typename R::acc_t))));
    value = std::max(value, 1);
    cached.store(value, std::memory_order_relaxed);
  }
  return value;
}

// Grid for n elements: all resident blocks, or fewer when n does not give
// every block at least one whole tile of TILE vectors.
template <class R>
std::size_t grid_for(std::size_t n) {
  constexpr std::size_t elems_per_tile =
      static_cast<std::size_t>(BLOCK_THREADS) * UNROLL * Vec16<typename R::in_t>::N;
  const std::size_t resident = static_cast<std::size_t>(gpu::sm_count()) * blocks_per_sm<R>();
  return std::max<std::size_t>(1, std::min(resident, detail::div_up(n, elems_per_tile)));
}

// Workspace: [ ticket (256 B) ][ grid acc_t partials ].
constexpr std::size_t TICKET_BYTES = gpu::align_workspace(sizeof(unsigned int));

template <class R>
void run_single_pass_for(const ReduceCall& call) {
  using acc_t = typename R::acc_t;
  const std::size_t n = call.spec.n;
  cudaStream_t stream = call.stream;
  if (n == 0) {
    gpu::write_identity<R>(call.out, stream);
    return;
  }
  auto* ticket = gpu::workspace_at<unsigned int>(call.workspace, 0);
  auto* partials = gpu::workspace_at<acc_t>(call.workspace, TICKET_BYTES);
  const unsigned grid = gpu::checked_grid(grid_for<R>(n), "reduce_single_pass_kernel", n);
  if (grid > 1) TESSERA_CUDA(cudaMemsetAsync(ticket, 0, sizeof(unsigned int), stream));
  detail::launch("reduce_single_pass_kernel", reduce_single_pass_kernel<R>, dim3(grid), dim3(BLOCK_THREADS),
                 smem_bytes(sizeof(acc_t)), stream, n, static_cast<const typename R::in_t*>(call.in), n, partials,
                 ticket, static_cast<typename R::out_t*>(call.out));
}

}  // namespace

void run_single_pass(const ReduceCall& call) {
  gpu::dispatch_or_throw("single_pass", call.spec, [&]<class R>() { run_single_pass_for<R>(call); });
}

std::size_t ws_single_pass(const ReduceSpec& spec) {
  if (spec.n == 0) return 0;
  std::size_t bytes = 0;
  dispatch_reducer(spec.dtype, spec.op, spec.accum, [&]<class R>() {
    bytes = TICKET_BYTES + gpu::align_workspace(grid_for<R>(spec.n) * sizeof(typename R::acc_t));
  });
  return bytes;
}

bool supports_single_pass(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
