// Step 3 — the mask in constant memory (seed 000 "Conv", Constant Memory for
// Filter): every thread of a warp reads the same tap at the same time, which
// the constant cache broadcasts in one transaction, and the FMA takes it as
// an operand without a load instruction. Half the loads of step 2.
//
// Bottleneck: the input is still loaded once per tap (from L1 mostly).
// Expected: step 2's traffic with fewer instructions; small masks near the
// copy bound's L1-limited rate, 9x9 still far from the FP32 rate.
#include "families/convolution/common.cuh"
#include "families/convolution/constant_mask.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

template <int BX, int BY>
__global__ __launch_bounds__(BX* BY) void conv_constant_mask_kernel(const float* __restrict__ in,
                                                                    float* __restrict__ out, gpu::Geometry g) {
  const gpu::TileOrigin t = gpu::tile_origin(g, BX, BY);
  const std::int64_t x = t.x0 + threadIdx.x, y = t.y0 + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  float acc = 0;
  for (int ky = 0; ky < g.mask_h; ++ky)
    for (int kx = 0; kx < g.mask_w; ++kx)
      acc += gpu::c_mask[ky * g.mask_w + kx] * gpu::load_or_zero(in, g, x - g.rx + kx, y - g.ry + ky);
  out[y * g.pitch + x] = acc;
}

}  // namespace

bool supports_constant_mask(const ConvSpec& s) { return s.taps() <= tiles::CONST_TAPS; }

void run_constant_mask(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  gpu::upload_constant_mask(call);
  if (s.height == 1) {
    detail::launch("conv_constant_mask_kernel<1d>", conv_constant_mask_kernel<tiles::BX_1D, 1>,
                   gpu::grid_of(s, tiles::BX_1D, 1), dim3(tiles::BX_1D), 0, call.stream, s.outputs(), call.in,
                   call.out, gpu::geometry(s, tiles::BX_1D));
  } else {
    detail::launch("conv_constant_mask_kernel<2d>", conv_constant_mask_kernel<tiles::BX_2D, tiles::BY_2D>,
                   gpu::grid_of(s, tiles::BX_2D, tiles::BY_2D), dim3(tiles::BX_2D, tiles::BY_2D), 0, call.stream,
                   s.outputs(), call.in, call.out, gpu::geometry(s, tiles::BX_2D));
  }
}

}  // namespace tessera::convolution_impl
