// Map step 2 — one element per thread (seed 003 "Data Parallel Algorithms -
// Map": every element an independent, side-effect free piece of work).
//
// Thread idx = blockIdx.x * 256 + threadIdx.x computes out[idx] = f(in[idx])
// when idx < n. Each warp reads and writes 128 consecutive bytes (4-byte
// types): coalesced, but one 4- or 8-byte load and store per thread and a
// block retired after a single element, so the load/store instruction rate
// and block scheduling, not DRAM, are what it runs into at large n.
// Expected: 85-90% of the copy bandwidth (H100).
#include <cuda_runtime.h>

#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"

namespace tessera::compose_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // the seed's blockIdx.x * 256

// No __restrict__: transform may run in place (in == out).
template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void map_one_per_thread_kernel(const T* in, T* out, std::size_t n,
                                                                           MapFn fn) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i < n) out[i] = map_apply(fn, in[i]);
}

}  // namespace

void run_map_one_per_thread(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  dispatch_map_type(call.spec.dtype, [&]<class T>() {
    const unsigned grid = gpu::checked_grid(detail::div_up(n, BLOCK_THREADS), "map_one_per_thread_kernel", n);
    detail::launch("map_one_per_thread_kernel", map_one_per_thread_kernel<T>, dim3(grid), dim3(BLOCK_THREADS), 0,
                   call.stream, n, static_cast<const T*>(call.in), static_cast<T*>(call.out), n, call.spec.fn);
  });
}
std::size_t ws_map_one_per_thread(const Spec&) { return 0; }
bool supports_map_one_per_thread(const Spec& spec) { return spec.family == Family::map && family_supports(spec); }

}  // namespace tessera::compose_impl
