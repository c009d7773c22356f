// Step 6 — tiling strategy 3: only the interior in shared memory, the halo
// through L2 (seed 000 "Conv", Strategy 3). One thread per output loads its
// own input element (no halo loads, no loop); a tap whose input lies in the
// tile reads shared memory, one outside it reads global memory, where the
// neighbouring block's load has most likely left it in L2 (and L1).
//
// What it changes over step 4: shared memory only for the interior, no
// extra load steps; the price is a branch per tap (divergence on the tile's
// edge warps) and L2 traffic for the halo: tiles.hpp counts it per output.
// Expected: near step 4 for 5x5, below it for 9x9 (more of every 32 x 8
// tile's taps fall in the halo: 8 rows against a 4-row apron).
#include "families/convolution/common.cuh"
#include "families/convolution/constant_mask.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

template <int BX, int BY>
__global__ __launch_bounds__(BX* BY) void conv_tiled_interior_l2_kernel(const float* __restrict__ in,
                                                                        float* __restrict__ out, gpu::Geometry g) {
  __shared__ float tile[BX * BY];
  const gpu::TileOrigin t = gpu::tile_origin(g, BX, BY);
  const std::int64_t x = t.x0 + threadIdx.x, y = t.y0 + threadIdx.y;
  tile[threadIdx.y * BX + threadIdx.x] = gpu::load_or_zero(in, g, x, y);
  __syncthreads();
  if (x >= g.width || y >= g.height) return;
  float acc = 0;
  for (int ky = 0; ky < g.mask_h; ++ky) {
    const int ly = int(threadIdx.y) - g.ry + ky;
    for (int kx = 0; kx < g.mask_w; ++kx) {
      const int lx = int(threadIdx.x) - g.rx + kx;
      const float v = (lx >= 0 && lx < BX && ly >= 0 && ly < BY) ? tile[ly * BX + lx]
                                                                 : gpu::load_or_zero(in, g, x - g.rx + kx, y - g.ry + ky);
      acc += gpu::c_mask[ky * g.mask_w + kx] * v;
    }
  }
  out[y * g.pitch + x] = acc;
}

}  // namespace

void run_tiled_interior_l2(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  gpu::upload_constant_mask(call);
  if (s.height == 1) {
    detail::launch("conv_tiled_interior_l2_kernel<1d>", conv_tiled_interior_l2_kernel<tiles::BX_1D, 1>,
                   gpu::grid_of(s, tiles::BX_1D, 1), dim3(tiles::BX_1D), 0, call.stream, s.outputs(), call.in,
                   call.out, gpu::geometry(s, tiles::BX_1D));
  } else {
    detail::launch("conv_tiled_interior_l2_kernel<2d>", conv_tiled_interior_l2_kernel<tiles::BX_2D, tiles::BY_2D>,
                   gpu::grid_of(s, tiles::BX_2D, tiles::BY_2D), dim3(tiles::BX_2D, tiles::BY_2D), 0, call.stream,
                   s.outputs(), call.in, call.out, gpu::geometry(s, tiles::BX_2D));
  }
}

}  // namespace tessera::convolution_impl
