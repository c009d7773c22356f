// Step 7 — tessera's direct convolution: register blocking, several outputs
// per thread (tessera; builds on seed 000 "Conv" Strategy 1 and the
// register tiling of the GEMM and stencil sections).
//
// 2D: 32 x 8 threads, each thread computes OUT_PER_THREAD = 8 outputs down a
// column, a 32 x 64 output tile whose input (halo included) is in shared
// memory. The thread walks the input rows of its window once: each row's
// mask_w values are loaded into registers and used for every one of its
// outputs whose window covers that row (up to mask_h of them), so shared
// loads per FMA fall from 1 (step 4) to (8 + mask_h - 1) / (8 mask_h), 0.22
// for 9x9, under the 1 : 4 ratio at which the shared-memory pipe would limit
// the FMA pipe. The common square masks (3, 5, 7, 9) are compiled with their
// sizes known: the loops unroll completely and the taps, passed as a kernel
// parameter, are read from the constant bank as FMA operands (no load
// instruction and no shared state between calls). Other sizes take a
// runtime-sized loop with the taps in shared memory.
//
// 1D: 256 threads, each computes 16 consecutive outputs (4,096 per block),
// stored through shared memory so that the global stores are coalesced;
// a window of 32 shared values in registers serves 16 taps x 16 outputs: 48
// shared loads (window and taps) per 256 FMAs, 0.19; the shared index is
// padded by one word per 16 so that the lanes' windows, 16 words apart, fall
// in 32 different banks.
//
// Bottleneck: 5x5 and short 1D masks are memory bound (this rung should be
// near the copy bound: one read and one write per pixel plus the halo);
// 9x9 and long 1D masks are FMA bound. Expected >= 85% of whichever bound
// the cost model names for the square masks; less for runtime sizes.
#include "families/convolution/common.cuh"
#include "families/convolution/cuda_rungs.hpp"

namespace tessera::convolution_impl {

namespace {

constexpr int R = tiles::OUT_PER_THREAD;
constexpr int BX = tiles::BX_2D, BY = tiles::BY_2D;
constexpr int TILE_H = BY * R;  // output rows per 2D block
constexpr int R1 = tiles::OUT_PER_THREAD_1D;
constexpr int OUT_1D = tiles::BX_1D * R1;

template <int MW, int MH>
struct MaskParam {
  float w[MW * MH > 0 ? MW * MH : 1];
};

// MW = MH = 0: sizes at run time, taps from shared memory.
template <int MW, int MH>
__global__ __launch_bounds__(BX* BY) void conv_register_blocked_2d_kernel(const float* __restrict__ in,
                                                                          const float* __restrict__ mask,
                                                                          const __grid_constant__ MaskParam<MW, MH> m,
                                                                          float* __restrict__ out, gpu::Geometry g) {
  extern __shared__ float smem[];
  const gpu::TileOrigin t = gpu::tile_origin(g, BX, TILE_H);
  const int sw = BX + 2 * g.rx, sh = TILE_H + 2 * g.ry;
  float* tile = smem;
  gpu::load_tile_async(tile, sw, sh, in, g, t.x0 - g.rx, t.y0 - g.ry);
  float* smask = smem + sw * sh;
  if constexpr (MW == 0) {
    // Rounded up to whole float4s, zero past the mask: a merged vector read
    // of the last taps stays inside the allocation (see 07_separable.cu).
    const int n = g.mask_w * g.mask_h;
    for (int i = threadIdx.y * BX + threadIdx.x; i < (n + 3) / 4 * 4; i += BX * BY) smask[i] = i < n ? mask[i] : 0.0f;
  }
  gpu::wait_tile();
  __syncthreads();

  float acc[R];
#pragma unroll
  for (int o = 0; o < R; ++o) acc[o] = 0;
  const float* base = tile + threadIdx.y * R * sw + threadIdx.x;
  if constexpr (MW > 0) {
#pragma unroll
    for (int iy = 0; iy < R + MH - 1; ++iy) {
      float v[MW];
#pragma unroll
      for (int kx = 0; kx < MW; ++kx) v[kx] = base[iy * sw + kx];
#pragma unroll
      for (int o = 0; o < R; ++o) {
        const int ky = iy - o;
        if (ky >= 0 && ky < MH) {
#pragma unroll
          for (int kx = 0; kx < MW; ++kx) acc[o] = fmaf(m.w[ky * MW + kx], v[kx], acc[o]);
        }
      }
    }
  } else {
    for (int ky = 0; ky < g.mask_h; ++ky)
      for (int kx = 0; kx < g.mask_w; ++kx) {
        const float w = smask[ky * g.mask_w + kx];
#pragma unroll
        for (int o = 0; o < R; ++o) acc[o] = fmaf(w, base[(o + ky) * sw + kx], acc[o]);
      }
  }
  const std::int64_t x = t.x0 + threadIdx.x;
  if (x >= g.width) return;
#pragma unroll
  for (int o = 0; o < R; ++o) {
    const std::int64_t y = t.y0 + threadIdx.y * R + o;
    if (y < g.height) out[y * g.pitch + x] = acc[o];
  }
}

// One padding word per 16: thread t's window starts at word 16t + c, stored
// at 17t + c + c/16, so the 32 lanes of a warp fall in 32 different banks
// (17 is odd) for every c; without it lanes 2 apart would share a bank.
__device__ inline int padded(int i) { return i + (i >> 4); }

__global__ __launch_bounds__(tiles::BX_1D) void conv_register_blocked_1d_kernel(const float* __restrict__ in,
                                                                                const float* __restrict__ mask,
                                                                                float* __restrict__ out,
                                                                                gpu::Geometry g, int taps_padded) {
  extern __shared__ float smem[];
  float* smask = smem;               // taps_padded taps, zero past mask_w
  float* tile = smem + taps_padded;  // OUT_1D + taps_padded inputs, padded index
  const std::int64_t x0 = std::int64_t(blockIdx.x) * OUT_1D;
  for (int i = threadIdx.x; i < taps_padded; i += blockDim.x) smask[i] = i < g.mask_w ? mask[i] : 0.0f;
  // Every copy in flight at once (see gpu::load_tile_async), ghosts zero-filled.
  for (int i = threadIdx.x; i < OUT_1D + taps_padded; i += blockDim.x) {
    const std::int64_t x = x0 - g.rx + i;
    const bool inside = x >= 0 && x < g.width;
    __pipeline_memcpy_async(tile + padded(i), inside ? in + x : in, sizeof(float), inside ? 0 : sizeof(float));
  }
  __pipeline_commit();
  gpu::wait_tile();
  __syncthreads();

  float acc[R1];
#pragma unroll
  for (int o = 0; o < R1; ++o) acc[o] = 0;
  const int i0 = threadIdx.x * R1;
  for (int jb = 0; jb < taps_padded; jb += R1) {
    float v[2 * R1];
#pragma unroll
    for (int k = 0; k < 2 * R1; ++k) v[k] = tile[padded(i0 + jb + k)];
#pragma unroll
    for (int jj = 0; jj < R1; ++jj) {
      const float w = smask[jb + jj];
#pragma unroll
      for (int o = 0; o < R1; ++o) acc[o] = fmaf(w, v[o + jj], acc[o]);
    }
  }
  // The outputs leave through shared memory: stored straight from acc, a
  // warp's 32 lanes would write 16 floats apart (16 store instructions, each
  // touching 32 sectors: the round-1 measurement, 7 taps at 21% of copy,
  // slower than the one-output-per-thread seed rungs). Written to the tile
  // (same conflict-free padded index) and read back so that consecutive
  // lanes store consecutive outputs.
  __syncthreads();  // every thread is done reading the inputs
#pragma unroll
  for (int o = 0; o < R1; ++o) tile[padded(i0 + o)] = acc[o];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < R1; ++k) {
    const int i = k * tiles::BX_1D + threadIdx.x;
    if (x0 + i < g.width) out[x0 + i] = tile[padded(i)];
  }
}

std::size_t taps_padded_1d(const ConvSpec& s) { return (s.mask_w + R1 - 1) / R1 * R1; }

std::size_t smem_1d(const ConvSpec& s) {
  const std::size_t tp = taps_padded_1d(s), n = OUT_1D + tp;
  return (tp + n + n / 16 + 1) * sizeof(float);
}

std::size_t smem_2d(const ConvSpec& s, bool runtime_mask) {
  return (tiles::halo_tile_floats(tiles::register_tile(false), s) + (runtime_mask ? (s.taps() + 3) / 4 * 4 : 0)) * sizeof(float);
}

template <int MW, int MH>
void launch_2d(const char* name, const ConvCall& call) {
  const ConvSpec& s = call.spec;
  MaskParam<MW, MH> m{};
  if constexpr (MW > 0)
    for (int i = 0; i < MW * MH; ++i) m.w[i] = call.host_mask[i];  // by value in the launch: graph-capturable
  detail::launch(name, conv_register_blocked_2d_kernel<MW, MH>, gpu::grid_of(s, BX, TILE_H), dim3(BX, BY),
                 smem_2d(s, MW == 0), call.stream, s.outputs(), call.in, call.mask, m, call.out,
                 gpu::geometry(s, BX));
}

}  // namespace

bool supports_register_blocked(const ConvSpec& s) {
  if (s.height == 1 && s.mask_h == 1) return smem_1d(s) <= tiles::SMEM_LIMIT;
  return smem_2d(s, true) <= tiles::SMEM_LIMIT;
}

void run_register_blocked(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  if (s.height == 1 && s.mask_h == 1) {
    const std::size_t tp = taps_padded_1d(s);
    detail::launch("conv_register_blocked_1d_kernel", conv_register_blocked_1d_kernel,
                   dim3(static_cast<unsigned>((s.width + OUT_1D - 1) / OUT_1D)), dim3(tiles::BX_1D), smem_1d(s),
                   call.stream, s.outputs(), call.in, call.mask, call.out, gpu::geometry(s, OUT_1D), int(tp));
    return;
  }
  if (s.mask_w == s.mask_h) {
    switch (s.mask_w) {
      case 3: return launch_2d<3, 3>("conv_register_blocked_2d_kernel<3x3>", call);
      case 5: return launch_2d<5, 5>("conv_register_blocked_2d_kernel<5x5>", call);
      case 7: return launch_2d<7, 7>("conv_register_blocked_2d_kernel<7x7>", call);
      case 9: return launch_2d<9, 9>("conv_register_blocked_2d_kernel<9x9>", call);
      default: break;
    }
  }
  launch_2d<0, 0>("conv_register_blocked_2d_kernel<runtime>", call);
}

}  // namespace tessera::convolution_impl
