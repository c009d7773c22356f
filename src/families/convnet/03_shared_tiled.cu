// Step 3 — filter and input tiles in shared memory (seed 000 "ConvNet",
// "reduce global memory": 1. put the filter in shared memory, 2. put part of
// the input feature map X[n, c] in shared memory).
//
// A block of TILE x TILE threads computes a TILE x TILE output tile of one
// (image n, filter m) plane. For each input channel it loads the input patch
// that tile reads ((TILE-1)*stride + k on a side, zeros where it falls in the
// padding) and the k x k filter slice into shared memory, then every thread
// accumulates its output from shared memory. What it changes over step 2:
// each input element is read from global memory once per block instead of
// up to k*k times, and each weight once per block instead of once per output.
// Bottleneck: two barriers per channel and a shared-memory load per FMA (the
// filter read is a broadcast, the input read is not reused in registers); the
// m filters of a pixel still re-read the same patch in m different blocks.
// Expected: 2-4x step 2, still far below the FP32 rate.
#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/blocks/launch.cuh"

namespace tessera::conv_impl {

namespace {

constexpr int TILE = 16;  // 256 threads, one output each
// The default shared-memory limit per block, without an opt-in.
constexpr std::size_t SMEM_LIMIT = 48 * 1024;

int patch_side(const ConvSpec& s) { return int((TILE - 1) * s.stride + s.k); }
std::size_t smem_bytes(const ConvSpec& s) {
  const std::size_t side = std::size_t(patch_side(s));
  return (side * side + s.k * s.k) * sizeof(float);
}

__global__ void __launch_bounds__(TILE* TILE) conv_shared_tiled_kernel(ConvGeom g, int tiles_w,
                                                                      const float* __restrict__ x,
                                                                      const float* __restrict__ w,
                                                                      float* __restrict__ y) {
  extern __shared__ float smem[];
  const int side = (TILE - 1) * g.stride + g.k;
  float* patch = smem;               // side x side input values of one channel
  float* filt = smem + side * side;  // k x k weights of one channel
  const int m = blockIdx.y, n = blockIdx.z;
  const int tile_h = blockIdx.x / tiles_w, tile_w = blockIdx.x % tiles_w;
  const int ho = tile_h * TILE + threadIdx.y, wo = tile_w * TILE + threadIdx.x;
  const int h0 = tile_h * TILE * g.stride - g.pad, w0 = tile_w * TILE * g.stride - g.pad;  // patch origin
  const int tid = threadIdx.y * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int c = 0; c < g.c; ++c) {
    const float* xc = x + (static_cast<long long>(n) * g.c + c) * g.h * g.w;
    for (int i = tid; i < side * side; i += TILE * TILE) {
      const int hi = h0 + i / side, wi = w0 + i % side;
      patch[i] = (hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) ? xc[hi * g.w + wi] : 0.0f;
    }
    const float* wc = w + (static_cast<long long>(m) * g.c + c) * g.k * g.k;
    for (int i = tid; i < g.k * g.k; i += TILE * TILE) filt[i] = wc[i];
    __syncthreads();
    // Threads outside the output (edge tiles) still reach both barriers.
    const float* base = patch + threadIdx.y * g.stride * side + threadIdx.x * g.stride;
    for (int p = 0; p < g.k; ++p)
      for (int q = 0; q < g.k; ++q) acc = fmaf(filt[p * g.k + q], base[p * side + q], acc);
    __syncthreads();
  }
  if (ho < g.ho && wo < g.wo) y[((static_cast<long long>(n) * g.m + m) * g.ho + ho) * g.wo + wo] = acc;
}

}  // namespace

bool supports_shared_tiled(const ConvSpec& s) {
  return fits_int32(s) && smem_bytes(s) <= SMEM_LIMIT && s.m <= 65535 && s.n <= 65535;
}

void run_shared_tiled(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const int tiles_h = int(detail::div_up(s.ho, TILE)), tiles_w = int(detail::div_up(s.wo, TILE));
  const dim3 grid(unsigned(tiles_h * tiles_w), unsigned(s.m), unsigned(s.n));
  detail::launch("conv_shared_tiled_kernel", conv_shared_tiled_kernel, grid, dim3(TILE, TILE), smem_bytes(s),
                 call.stream, s.y_elems(), geom_of(s), tiles_w, call.x, call.w, call.y);
}

}  // namespace tessera::conv_impl
