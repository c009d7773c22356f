// Adjacent difference step 2 — naive, straight from global memory (seed 003
// "When to Use Shared Memory?": absolute_diff).
//
// Thread idx computes out[idx] = |in[idx] - in[idx - 1]| (out[0] = |in[0]|,
// which the seed leaves unwritten): every input element is loaded twice, once
// by its own thread and once by its right neighbour. The second load of an
// element comes from the same or the neighbouring 128-byte line the warp just
// read, so on H100 it is mostly an L1 hit: the cost is twice the load
// instructions, not twice the DRAM traffic. Expected: 80-90% of the copy
// bandwidth.
#include <cuda_runtime.h>

#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"

namespace tessera::compose_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // the seed's blockIdx.x * 256

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void adjdiff_naive_global_kernel(const T* __restrict__ in,
                                                                             absdiff_t<T>* __restrict__ out,
                                                                             std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i < n) out[i] = absdiff(in[i], i > 0 ? in[i - 1] : T(0));
}

}  // namespace

void run_adjdiff_naive_global(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  dispatch_map_type(call.spec.dtype, [&]<class T>() {
    const unsigned grid = gpu::checked_grid(detail::div_up(n, BLOCK_THREADS), "adjdiff_naive_global_kernel", n);
    detail::launch("adjdiff_naive_global_kernel", adjdiff_naive_global_kernel<T>, dim3(grid), dim3(BLOCK_THREADS), 0,
                   call.stream, n, static_cast<const T*>(call.in), static_cast<absdiff_t<T>*>(call.out), n);
  });
}
std::size_t ws_adjdiff_naive_global(const Spec&) { return 0; }
bool supports_adjdiff_naive_global(const Spec& spec) {
  return spec.family == Family::adjacent_difference && family_supports(spec);
}

}  // namespace tessera::compose_impl
