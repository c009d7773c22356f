// Step 3 — the seed's 3-point weighted average with overlapping blocks (seed
// 004 "Moyenne glissante & blocs recouvrants", v3/v4): every sample a block
// needs is in shared memory. A block of BSX threads loads BSX samples and
// computes the BSX - 2 outputs between its first and last; consecutive
// blocks overlap by 2 samples, so the halo comes from the block's own loads
// and the compute reads only shared memory. The last block overflows n (v4).
// Edges: the first block's left sample and the last's right sample follow the
// edge rule, so every output is written.
//
// What it changes over step 2: no divergent global halo reads; the price is
// 2 of every BSX samples loaded twice (0.8% at BSX = 256) and 2 idle threads
// per block at compute. Bottleneck: DRAM with one 4-byte access per thread.
// Expected about step 2's bandwidth, ~75-85% of copy.
#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/launch.cuh"

namespace tessera::moving_average_impl {

namespace {

constexpr int BSX = 256;        // threads (and samples) per block
constexpr int OUTS = BSX - 2;   // outputs per block: all but the two halo threads

__global__ __launch_bounds__(BSX) void moving_average_overlapping_blocks_kernel(window::Samples<float> s,
                                                                               const float* __restrict__ weights,
                                                                               float* __restrict__ out) {
  __shared__ float tile[BSX];
  // Thread t loads sample block * OUTS + t - 1: thread 0 the left halo.
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * OUTS + threadIdx.x - 1;
  tile[threadIdx.x] = window::load_sample(s, g);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == BSX - 1 || g >= static_cast<std::int64_t>(s.n)) return;
  const int t = static_cast<int>(threadIdx.x);
  out[g] = weights[0] * tile[t - 1] + weights[1] * tile[t] + weights[2] * tile[t + 1];
}

}  // namespace

void run_overlapping_blocks(const MovingAverageCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  detail::launch("moving_average_overlapping_blocks_kernel", moving_average_overlapping_blocks_kernel,
                 dim3(static_cast<unsigned>(detail::div_up(n, OUTS))), dim3(BSX), 0, call.stream, n,
                 window::samples_of<float>(call), static_cast<const float*>(call.weights), static_cast<float*>(call.out));
}

}  // namespace tessera::moving_average_impl
