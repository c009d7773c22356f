// Step 2 — direct convolution, one thread per output element (seed 000
// "ConvNet", forward path CUDA: each thread runs the c, p, q loops for one
// y[n, m, h, w]).
//
// Consecutive threads take consecutive output columns of one output row, so
// their input reads are consecutive (coalesced for stride 1) and the whole
// warp reads the same weight (a broadcast). Every x element is read from
// global memory (L1/L2) by up to k*k*m threads and every weight by every
// output of its plane: the bottleneck is load instructions, two per FMA.
// Expected: a few % of the FP32 rate.
#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/blocks/launch.cuh"

namespace tessera::conv_impl {

namespace {

constexpr int THREADS = 256;

__global__ void __launch_bounds__(THREADS) conv_direct_kernel(ConvGeom g, const float* __restrict__ x,
                                                              const float* __restrict__ w, float* __restrict__ y) {
  const long long total = static_cast<long long>(g.n) * g.m * g.pixels();
  for (long long i = blockIdx.x * static_cast<long long>(THREADS) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * THREADS) {
    const int wo = static_cast<int>(i % g.wo);
    const int ho = static_cast<int>(i / g.wo % g.ho);
    const int m = static_cast<int>(i / g.pixels() % g.m);
    const int n = static_cast<int>(i / (static_cast<long long>(g.pixels()) * g.m));
    const int h0 = ho * g.stride - g.pad, w0 = wo * g.stride - g.pad;
    float acc = 0.0f;
    for (int c = 0; c < g.c; ++c) {
      const float* xc = x + (static_cast<long long>(n) * g.c + c) * g.h * g.w;
      const float* wc = w + (static_cast<long long>(m) * g.c + c) * g.k * g.k;
      for (int p = 0; p < g.k; ++p) {
        const int hi = h0 + p;
        if (hi < 0 || hi >= g.h) continue;
        for (int q = 0; q < g.k; ++q) {
          const int wi = w0 + q;
          if (wi >= 0 && wi < g.w) acc = fmaf(wc[p * g.k + q], xc[hi * g.w + wi], acc);
        }
      }
    }
    y[i] = acc;
  }
}

}  // namespace

void run_direct(const ConvCall& call) {
  const ConvGeom g = geom_of(call.spec);
  const std::size_t total = call.spec.y_elems();
  // A grid-stride loop over at most 2^16 blocks: any size fits the grid.
  const std::size_t blocks = std::min<std::size_t>(detail::div_up(total, THREADS), 65536);
  detail::launch("conv_direct_kernel", conv_direct_kernel, dim3(unsigned(blocks)), dim3(THREADS), 0, call.stream,
                 total, g, call.x, call.w, call.y);
}

}  // namespace tessera::conv_impl
