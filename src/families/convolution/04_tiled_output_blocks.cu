// Step 4 — tiling strategy 1: output-sized blocks (seed 000 "Conv", Strategy
// 1). One thread per output; the block's input tile, halo included, is
// loaded into shared memory in several steps (every thread loads elements
// tid, tid + threads, ...: the interior, then the halo), then every thread
// computes its output from shared memory with no bounds test and no
// divergence. Mask in constant memory as in step 3.
//
// What it changes: global loads per output drop from mask_w * mask_h to
// (tx + mask_w - 1)(ty + mask_h - 1) / (tx ty) (tiles.hpp, docs); the cost
// is the shared memory of the halo and a barrier. Bottleneck: shared-memory
// loads, one per FMA. Expected near copy bandwidth for 5x5; 9x9 limited by
// the shared-memory pipe (~1 load per FMA), about a quarter to a half of the
// FP32 rate.
#include "families/convolution/common.cuh"
#include "families/convolution/constant_mask.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

template <int BX, int BY>
__global__ __launch_bounds__(BX* BY) void conv_tiled_output_blocks_kernel(const float* __restrict__ in,
                                                                          float* __restrict__ out, gpu::Geometry g) {
  extern __shared__ float tile[];
  const gpu::TileOrigin t = gpu::tile_origin(g, BX, BY);
  const int sw = BX + 2 * g.rx, sh = BY + 2 * g.ry;
  gpu::load_tile(tile, sw, sh, in, g, t.x0 - g.rx, t.y0 - g.ry);
  __syncthreads();
  const std::int64_t x = t.x0 + threadIdx.x, y = t.y0 + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  float acc = 0;
  for (int ky = 0; ky < g.mask_h; ++ky) {
    const float* row = tile + (threadIdx.y + ky) * sw + threadIdx.x;
    for (int kx = 0; kx < g.mask_w; ++kx) acc += gpu::c_mask[ky * g.mask_w + kx] * row[kx];
  }
  out[y * g.pitch + x] = acc;
}

}  // namespace

bool supports_tiled_output_blocks(const ConvSpec& s) {
  return s.taps() <= tiles::CONST_TAPS &&
         tiles::halo_tile_floats(tiles::output_tile(s.height == 1), s) * sizeof(float) <= tiles::SMEM_LIMIT;
}

void run_tiled_output_blocks(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  gpu::upload_constant_mask(call);
  const tiles::Tile t = tiles::output_tile(s.height == 1);
  const std::size_t smem = tiles::halo_tile_floats(t, s) * sizeof(float);
  if (s.height == 1) {
    detail::launch("conv_tiled_output_blocks_kernel<1d>", conv_tiled_output_blocks_kernel<tiles::BX_1D, 1>,
                   gpu::grid_of(s, t.x, t.y), dim3(tiles::BX_1D), smem, call.stream, s.outputs(), call.in, call.out,
                   gpu::geometry(s, t.x));
  } else {
    detail::launch("conv_tiled_output_blocks_kernel<2d>", conv_tiled_output_blocks_kernel<tiles::BX_2D, tiles::BY_2D>,
                   gpu::grid_of(s, t.x, t.y), dim3(tiles::BX_2D, tiles::BY_2D), smem, call.stream, s.outputs(),
                   call.in, call.out, gpu::geometry(s, t.x));
  }
}

}  // namespace tessera::convolution_impl
