// Step 7 — tessera's separable path: a rank-1 mask (mask = col x row, found
// on the host with a tolerance: separable.hpp) as two 1D passes fused in one
// kernel (tessera; the separable-filter idea applied to seed 000 "Conv"
// Strategy 1's shared tile).
//
// A 32 x 8 block loads a 32 x 64 output tile's input, halo included, into
// shared memory once; the row pass convolves every row of it with the
// mask_w row taps into a second shared tile (32 columns x the tile's rows
// plus the vertical halo); the column pass convolves that with the mask_h
// column taps, 8 outputs per thread. mask_w + mask_h FMAs per output
// instead of mask_w * mask_h (18 instead of 81 for 9x9) and still one pass
// over memory: two separate 1D kernels would move the image twice.
//
// Bottleneck: memory (a 9x9 separable mask needs 36 flops per pixel, below
// the H100's ~17 flops per byte of balance). Expected: near the copy bound
// for every mask size, i.e. above the direct form's FMA bound that the cost
// model names for 9x9.
#include "families/convolution/common.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

constexpr int R = tiles::OUT_PER_THREAD;
constexpr int BX = tiles::BX_2D, BY = tiles::BY_2D;
constexpr int TILE_H = BY * R;

// The taps' region rounded up to whole float4s. The row pass's loop over the
// taps is unrolled by 4, and its remainder's loads are merged into one
// vector read from the 16-byte aligned start of the last group (the tap
// region starts at a multiple of 4 floats for every halo): with 1 x 1 or
// n x 1 masks that read ran up to 2 floats past the allocation
// (compute-sanitizer: "Invalid __shared__ read of size 12"). The padding,
// zero, is read and never used.
__host__ __device__ constexpr int taps_padded(int n) { return (n + 3) / 4 * 4; }

__global__ __launch_bounds__(BX* BY) void conv_separable_kernel(const float* __restrict__ in,
                                                                const float* __restrict__ row_taps,
                                                                const float* __restrict__ col_taps,
                                                                float* __restrict__ out, gpu::Geometry g) {
  extern __shared__ float smem[];
  const gpu::TileOrigin t = gpu::tile_origin(g, BX, TILE_H);
  const int sw = BX + 2 * g.rx, sh = TILE_H + 2 * g.ry;
  float* tile = smem;               // sw x sh inputs
  float* rows = tile + sw * sh;     // BX x sh: the row pass
  float* taps = rows + BX * sh;     // mask_w row taps, then mask_h column taps
  const int tid = threadIdx.y * BX + threadIdx.x;
  gpu::load_tile_async(tile, sw, sh, in, g, t.x0 - g.rx, t.y0 - g.ry);
  const int n_taps = g.mask_w + g.mask_h;
  for (int i = tid; i < taps_padded(n_taps); i += BX * BY)
    taps[i] = i < g.mask_w ? row_taps[i] : i < n_taps ? col_taps[i - g.mask_w] : 0.0f;
  gpu::wait_tile();
  __syncthreads();
  // Row pass: the warp's 32 lanes take 32 consecutive columns of one row.
  for (int r = threadIdx.y; r < sh; r += BY) {
    const float* src = tile + r * sw + threadIdx.x;
    float acc = 0;
    for (int kx = 0; kx < g.mask_w; ++kx) acc = fmaf(taps[kx], src[kx], acc);
    rows[r * BX + threadIdx.x] = acc;
  }
  __syncthreads();
  // Column pass: 8 outputs down the thread's column.
  const float* col = taps + g.mask_w;
  const float* base = rows + threadIdx.y * R * BX + threadIdx.x;
  float acc[R];
#pragma unroll
  for (int o = 0; o < R; ++o) acc[o] = 0;
  for (int ky = 0; ky < g.mask_h; ++ky) {
    const float w = col[ky];
#pragma unroll
    for (int o = 0; o < R; ++o) acc[o] = fmaf(w, base[(o + ky) * BX], acc[o]);
  }
  const std::int64_t x = t.x0 + threadIdx.x;
  if (x >= g.width) return;
#pragma unroll
  for (int o = 0; o < R; ++o) {
    const std::int64_t y = t.y0 + threadIdx.y * R + o;
    if (y < g.height) out[y * g.pitch + x] = acc[o];
  }
}

std::size_t smem_of(const ConvSpec& s) {
  const std::size_t sh = TILE_H + 2 * s.ry();
  return ((BX + 2 * s.rx()) * sh + BX * sh + std::size_t(taps_padded(int(s.mask_w + s.mask_h)))) * sizeof(float);
}

}  // namespace

bool supports_separable(const ConvSpec& s) { return s.separable && smem_of(s) <= tiles::SMEM_LIMIT; }

void run_separable(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  require(call.row_taps != nullptr && call.col_taps != nullptr, "convolution separable: the call has no factors");
  detail::launch("conv_separable_kernel", conv_separable_kernel, gpu::grid_of(s, BX, TILE_H), dim3(BX, BY),
                 smem_of(s), call.stream, s.outputs(), call.in, call.row_taps, call.col_taps, call.out,
                 gpu::geometry(s, BX));
}

}  // namespace tessera::convolution_impl
