// Step 2 — the seed's 3-point weighted average with juxtaposed blocks (seed
// 004 "Moyenne glissante & blocs juxtaposés", v1/v2): each block of
// BLOCK threads loads its BLOCK samples into shared memory once, one per
// thread, and every thread combines its left neighbour, itself and its
// right neighbour from there. The two threads at the block's ends need a
// sample another block loaded: they read that halo from global memory. The
// last block overflows n (v2): its loads and stores are guarded. Edges follow
// the edge rule (the seed leaves out[0] and out[n-1] unwritten; tessera
// writes every output).
//
// What it changes over reading 3 samples from global memory per output: one
// global read per sample instead of three (the seed's "BSX accès au lieu de
// 3xBSX"). Bottleneck: DRAM, with one 4-byte load and store per thread, the
// barrier and the divergent halo reads of the end threads. Expected ~75-85%
// of copy bandwidth on an H100 (one element per thread keeps few loads in
// flight).
#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/launch.cuh"

namespace tessera::moving_average_impl {

namespace {

// 256 threads: the seed's BLOCK_SIZE_X; 8 blocks fill an H100 SM.
constexpr int BLOCK = 256;

__global__ __launch_bounds__(BLOCK) void moving_average_juxtaposed_halo_kernel(window::Samples<float> s,
                                                                              const float* __restrict__ weights,
                                                                              float* __restrict__ out) {
  __shared__ float tile[BLOCK];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK + threadIdx.x;
  if (i < s.n) tile[threadIdx.x] = s.in[i];
  __syncthreads();  // every thread reaches it: only the loads and stores are guarded
  if (i >= s.n) return;
  const auto g = static_cast<std::int64_t>(i);
  // Halo: the block's first and last threads, and the last block's last
  // valid thread, read their outer neighbour from global memory (or the edge rule).
  const float left = threadIdx.x == 0 ? window::load_sample(s, g - 1) : tile[threadIdx.x - 1];
  const float right = (threadIdx.x == BLOCK - 1 || i + 1 >= s.n) ? window::load_sample(s, g + 1) : tile[threadIdx.x + 1];
  out[i] = weights[0] * left + weights[1] * tile[threadIdx.x] + weights[2] * right;
}

}  // namespace

bool supports_three_point(const MovingAverageSpec& spec) { return spec.dtype == Dtype::f32 && spec.w == 3; }

void run_juxtaposed_halo(const MovingAverageCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  detail::launch("moving_average_juxtaposed_halo_kernel", moving_average_juxtaposed_halo_kernel,
                 dim3(static_cast<unsigned>(detail::div_up(n, BLOCK))), dim3(BLOCK), 0, call.stream, n,
                 window::samples_of<float>(call), static_cast<const float*>(call.weights), static_cast<float*>(call.out));
}

}  // namespace tessera::moving_average_impl
