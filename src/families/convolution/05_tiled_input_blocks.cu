// Step 5 — tiling strategy 2: input-sized blocks (seed 000 "Conv", Strategy
// 2). One thread per *input* element of the tile: every thread loads exactly
// one element (no loop, no divergence while loading), then only the threads
// whose element has its whole window inside the tile compute an output; the
// others idle. Mask in constant memory.
//
// What it changes over step 4: a simpler load, paid for with idle threads:
// (ix - mask_w + 1)(iy - mask_h + 1) of ix * iy threads compute, 56% for 9x9
// on 32 x 32 blocks; and more global loads per output than strategy 1
// (ix iy / (outputs per block): tiles.hpp). Needs mask_w - 1 <= ix / 2
// (and the same for rows), else most of the block would idle: long 1D masks
// are not supported. Expected: below step 4 for 9x9, close to it for 5x5.
#include "families/convolution/common.cuh"
#include "families/convolution/constant_mask.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

template <int IX, int IY>
__global__ __launch_bounds__(IX* IY) void conv_tiled_input_blocks_kernel(const float* __restrict__ in,
                                                                         float* __restrict__ out, gpu::Geometry g) {
  __shared__ float tile[IX * IY];
  const int ox = IX - 2 * g.rx, oy = IY - 2 * g.ry;  // outputs of the block along x and y
  const gpu::TileOrigin t = gpu::tile_origin(g, ox, oy);
  // Thread (tx, ty) holds input (x0 - rx + tx, y0 - ry + ty).
  tile[threadIdx.y * IX + threadIdx.x] =
      gpu::load_or_zero(in, g, t.x0 - g.rx + threadIdx.x, t.y0 - g.ry + threadIdx.y);
  __syncthreads();
  if (int(threadIdx.x) >= ox || int(threadIdx.y) >= oy) return;  // the idle threads of this strategy
  const std::int64_t x = t.x0 + threadIdx.x, y = t.y0 + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  float acc = 0;
  for (int ky = 0; ky < g.mask_h; ++ky) {
    const float* row = tile + (threadIdx.y + ky) * IX + threadIdx.x;
    for (int kx = 0; kx < g.mask_w; ++kx) acc += gpu::c_mask[ky * g.mask_w + kx] * row[kx];
  }
  out[y * g.pitch + x] = acc;
}

}  // namespace

bool supports_tiled_input_blocks(const ConvSpec& s) {
  const tiles::Tile b = tiles::input_block(s.height == 1);
  return s.taps() <= tiles::CONST_TAPS && 2 * s.rx() <= b.x / 2 && 2 * s.ry() <= b.y / 2;
}

void run_tiled_input_blocks(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  gpu::upload_constant_mask(call);
  const tiles::Tile b = tiles::input_block(s.height == 1);
  const std::size_t ox = b.x - 2 * s.rx(), oy = b.y - 2 * s.ry();
  if (s.height == 1) {
    detail::launch("conv_tiled_input_blocks_kernel<1d>", conv_tiled_input_blocks_kernel<tiles::IX_1D, 1>,
                   gpu::grid_of(s, ox, oy), dim3(tiles::IX_1D), 0, call.stream, s.outputs(), call.in, call.out,
                   gpu::geometry(s, ox));
  } else {
    detail::launch("conv_tiled_input_blocks_kernel<2d>", conv_tiled_input_blocks_kernel<tiles::IX_2D, tiles::IY_2D>,
                   gpu::grid_of(s, ox, oy), dim3(tiles::IX_2D, tiles::IY_2D), 0, call.stream, s.outputs(), call.in,
                   call.out, gpu::geometry(s, ox));
  }
}

}  // namespace tessera::convolution_impl
