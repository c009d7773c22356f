// Step 2 — basic: one thread per output, the mask and the input read from
// global memory for every tap (seed 000 "Conv", Simple 1D/2D Conv).
//
// Bottleneck: mask_w * mask_h global load instructions per output for the
// input plus as many for the mask; L1 catches most of the reuse between
// neighbouring threads, so the DRAM traffic is near the minimum, but the
// load/store pipe issues two loads per FMA. Expected: well under half of the
// FP32 rate for 9x9 and ~50-70% of copy bandwidth for small masks.
#include "families/convolution/common.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

template <int BX, int BY>
__global__ __launch_bounds__(BX* BY) void conv_basic_kernel(const float* __restrict__ in, const float* __restrict__ mask,
                                                            float* __restrict__ out, gpu::Geometry g) {
  const gpu::TileOrigin t = gpu::tile_origin(g, BX, BY);
  const std::int64_t x = t.x0 + threadIdx.x, y = t.y0 + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  float acc = 0;
  for (int ky = 0; ky < g.mask_h; ++ky)
    for (int kx = 0; kx < g.mask_w; ++kx)
      acc += mask[ky * g.mask_w + kx] * gpu::load_or_zero(in, g, x - g.rx + kx, y - g.ry + ky);
  out[y * g.pitch + x] = acc;
}

}  // namespace

void run_basic(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  if (s.height == 1) {
    detail::launch("conv_basic_kernel<1d>", conv_basic_kernel<tiles::BX_1D, 1>, gpu::grid_of(s, tiles::BX_1D, 1),
                   dim3(tiles::BX_1D), 0, call.stream, s.outputs(), call.in, call.mask, call.out,
                   gpu::geometry(s, tiles::BX_1D));
  } else {
    detail::launch("conv_basic_kernel<2d>", conv_basic_kernel<tiles::BX_2D, tiles::BY_2D>,
                   gpu::grid_of(s, tiles::BX_2D, tiles::BY_2D), dim3(tiles::BX_2D, tiles::BY_2D), 0, call.stream,
                   s.outputs(), call.in, call.mask, call.out, gpu::geometry(s, tiles::BX_2D));
  }
}

}  // namespace tessera::convolution_impl
