// Step 7 — tessera's direct 2D convolution for square 3/5/7/9 masks
// (measured ahead of register_blocked; pipelined_tiles is the pick now): register
// blocking in both directions (tessera). Each thread of
// a 32 x 8 block computes 2 adjacent columns x 8 rows (a 64 x 64 output
// tile) and reads each input row of its window as float2 pairs: mask_w + 1
// values serve 2 outputs per row, so shared loads per FMA fall from
// register_blocked's (8 + mask_h - 1) / (8 mask_h) to about half that, and
// the issue slots left to FMAs rise (9x9: ~1,376 instructions for 1,296
// FMAs per thread against ~820 for 648). The float2 loads of a warp are 256
// consecutive bytes: two wavefronts, no bank conflicts (the tile's rows
// have an even length so that every pair is 8-byte aligned).
//
// Square masks of 3, 5, 7, 9 only (taps as kernel parameters, loops
// unrolled). Round 1 (H100, load_tile, scalar stores): 5x5 0.350 ms (51% of
// copy), 9x9 0.922 ms (19% of FP32), ahead of register_blocked's 0.430 and
// 1.166. Round 2 copies the tile with cp.async (all of a thread's copies in
// flight instead of about one: the loads, not the FMAs, were the limit) and
// stores float2 pairs; predicted 5x5 ~0.21-0.25 ms, 9x9 ~0.25-0.35 ms.
#include "families/convolution/common.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

constexpr int R = tiles::OUT_PER_THREAD;
constexpr int BX = tiles::BX_2D, BY = tiles::BY_2D;
constexpr int TILE_W = 2 * BX, TILE_H = BY * R;

template <int M>
struct SquareTaps {
  float w[M * M];
};

// Shared row length: the tile and its halo, rounded up to even.
inline int row_floats(int rx) { return (TILE_W + 2 * rx + 1) / 2 * 2; }

template <int M>
__global__ __launch_bounds__(BX* BY) void conv_register_blocked_wide_kernel(const __grid_constant__ SquareTaps<M> m,
                                                                            const float* __restrict__ in,
                                                                            float* __restrict__ out, gpu::Geometry g) {
  extern __shared__ float2 smem2[];  // float2: 8-byte alignment of the tile
  float* tile = reinterpret_cast<float*>(smem2);
  const gpu::TileOrigin t = gpu::tile_origin(g, TILE_W, TILE_H);
  const int sw = (TILE_W + M) / 2 * 2, sh = TILE_H + M - 1;  // M - 1 = 2r halo
  gpu::load_tile_async(tile, sw, sh, in, g, t.x0 - g.rx, t.y0 - g.ry);
  gpu::wait_tile();
  __syncthreads();

  float left[R], right[R];
#pragma unroll
  for (int o = 0; o < R; ++o) left[o] = right[o] = 0;
  const float* base = tile + threadIdx.y * R * sw + 2 * threadIdx.x;
#pragma unroll
  for (int iy = 0; iy < R + M - 1; ++iy) {
    float v[M + 1];
#pragma unroll
    for (int k = 0; k < (M + 1) / 2; ++k) {
      const float2 p = *reinterpret_cast<const float2*>(base + iy * sw + 2 * k);
      v[2 * k] = p.x;
      v[2 * k + 1] = p.y;
    }
#pragma unroll
    for (int o = 0; o < R; ++o) {
      const int ky = iy - o;
      if (ky >= 0 && ky < M) {
#pragma unroll
        for (int kx = 0; kx < M; ++kx) {
          left[o] = fmaf(m.w[ky * M + kx], v[kx], left[o]);
          right[o] = fmaf(m.w[ky * M + kx], v[kx + 1], right[o]);
        }
      }
    }
  }
  const std::int64_t x = t.x0 + 2 * threadIdx.x;
  // One float2 store per pair where it is 8-byte aligned (x is even: an even
  // pitch and an aligned output): a warp's store is 256 whole bytes instead
  // of two interleaved half-filled ones.
  const bool pairs = (g.pitch & 1) == 0 && (reinterpret_cast<std::uintptr_t>(out) & 7) == 0 && x + 1 < g.width;
#pragma unroll
  for (int o = 0; o < R; ++o) {
    const std::int64_t y = t.y0 + threadIdx.y * R + o;
    if (y >= g.height) break;
    if (pairs) {
      *reinterpret_cast<float2*>(out + y * g.pitch + x) = make_float2(left[o], right[o]);
    } else {
      if (x < g.width) out[y * g.pitch + x] = left[o];
      if (x + 1 < g.width) out[y * g.pitch + x + 1] = right[o];
    }
  }
}

std::size_t smem_of(const ConvSpec& s) {
  return std::size_t(row_floats(int(s.rx()))) * (TILE_H + 2 * s.ry()) * sizeof(float);
}

template <int M>
void launch(const char* name, const ConvCall& call) {
  const ConvSpec& s = call.spec;
  SquareTaps<M> m{};
  for (int i = 0; i < M * M; ++i) m.w[i] = call.host_mask[i];  // by value in the launch: graph-capturable
  detail::launch(name, conv_register_blocked_wide_kernel<M>, gpu::grid_of(s, TILE_W, TILE_H), dim3(BX, BY),
                 smem_of(s), call.stream, s.outputs(), m, call.in, call.out, gpu::geometry(s, TILE_W));
}

}  // namespace

bool supports_register_blocked_wide(const ConvSpec& s) {
  const bool square = s.mask_w == s.mask_h && (s.mask_w == 3 || s.mask_w == 5 || s.mask_w == 7 || s.mask_w == 9);
  return square && smem_of(s) <= tiles::SMEM_LIMIT;
}

void run_register_blocked_wide(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  switch (s.mask_w) {
    case 3: return launch<3>("conv_register_blocked_wide_kernel<3x3>", call);
    case 5: return launch<5>("conv_register_blocked_wide_kernel<5x5>", call);
    case 7: return launch<7>("conv_register_blocked_wide_kernel<7x7>", call);
    case 9: return launch<9>("conv_register_blocked_wide_kernel<9x9>", call);
    default: throw Error("convolution register_blocked_wide: square masks of 3, 5, 7 or 9 taps only");
  }
}

}  // namespace tessera::convolution_impl
