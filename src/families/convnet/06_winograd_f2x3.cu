// Step 6 — Winograd F(2x2, 3x3), non-fused (seed 000 "ConvNet": cuDNN's
// Winograd algorithm; Lavin & Gray's minimal filtering): for 3x3 filters at
// stride 1, each 2x2 output tile is computed from a 4x4 input tile with 16
// multiplications per (filter, channel) instead of 36, as 16 independent
// GEMMs over the transformed operands:
//
//   U[e] (m x c)  = G w G^T        per filter and channel (e = the 16 positions)
//   V[e] (c x t)  = B^T d B        per channel and 4x4 input tile (t = n * tiles)
//   M[e] (m x t)  = U[e] V[e]      16 calls of tessera::gemm (row-major, N, N)
//   y tile        = A^T M A        per filter and tile, clipped at the image edge
//
// What it changes over step 5: 2.25x fewer multiply-adds in the GEMMs, paid
// for with three transforms through memory (16 (m c + c t + m t) floats of
// workspace): it can win where c and m are large and the tiles few (ResNet's
// 512->512 at 7^2, AlexNet's conv3), and loses where c is small and the image
// large (the transformed input is 4x the input). Its rounding error grows with
// the transforms (coefficients 1/2 and +-1: a few units more than a direct
// sum), within the check's bound. Only k = 3, stride 1; any padding.
#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/gemm.hpp"

namespace tessera::conv_impl {

namespace {

constexpr int THREADS = 256;
constexpr std::size_t ALIGN = 256;  // each part of the workspace starts on a 256-byte boundary

struct Sizes {
  std::size_t tiles_h, tiles_w, t;  // 2x2 output tiles per image side, and in the batch
  std::size_t u, v, m;              // floats of each transformed operand (all 16 positions)
};

Sizes sizes_of(const ConvSpec& s) {
  Sizes z{};
  z.tiles_h = (s.ho + 1) / 2;
  z.tiles_w = (s.wo + 1) / 2;
  z.t = s.n * z.tiles_h * z.tiles_w;
  z.u = 16 * s.m * s.c;
  z.v = 16 * s.c * z.t;
  z.m = 16 * s.m * z.t;
  return z;
}

std::size_t padded_bytes(std::size_t floats) { return (floats * sizeof(float) + ALIGN - 1) / ALIGN * ALIGN; }

// U[e][m][c] = (G g G^T)[e], G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1].
__global__ void __launch_bounds__(THREADS) winograd_filter_transform_kernel(int m, int c, const float* __restrict__ w,
                                                                           float* __restrict__ u) {
  const int i = blockIdx.x * THREADS + threadIdx.x;  // (filter, channel)
  if (i >= m * c) return;
  const float* g = w + static_cast<long long>(i) * 9;
  float t[4][3];  // G g
  for (int j = 0; j < 3; ++j) {
    const float g0 = g[0 * 3 + j], g1 = g[1 * 3 + j], g2 = g[2 * 3 + j];
    t[0][j] = g0;
    t[1][j] = 0.5f * (g0 + g1 + g2);
    t[2][j] = 0.5f * (g0 - g1 + g2);
    t[3][j] = g2;
  }
  const long long plane = static_cast<long long>(m) * c;
  for (int r = 0; r < 4; ++r) {
    const float a = t[r][0], b = t[r][1], d = t[r][2];
    const float row[4] = {a, 0.5f * (a + b + d), 0.5f * (a - b + d), d};  // (G g) G^T
    for (int q = 0; q < 4; ++q) u[(r * 4 + q) * plane + i] = row[q];
  }
}

// V[e][c][t] = (B^T d B)[e], B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],
// d the 4x4 input patch at (2 th - pad, 2 tw - pad), zeros outside.
__global__ void __launch_bounds__(THREADS) winograd_input_transform_kernel(ConvGeom g, int tiles_h, int tiles_w,
                                                                          const float* __restrict__ x,
                                                                          float* __restrict__ v) {
  const int t_count = g.n * tiles_h * tiles_w;
  const long long total = static_cast<long long>(g.c) * t_count;
  for (long long i = blockIdx.x * static_cast<long long>(THREADS) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * THREADS) {
    const int t = static_cast<int>(i % t_count), c = static_cast<int>(i / t_count);
    const int n = t / (tiles_h * tiles_w), th = t / tiles_w % tiles_h, tw = t % tiles_w;
    const int h0 = 2 * th - g.pad, w0 = 2 * tw - g.pad;
    const float* xc = x + (static_cast<long long>(n) * g.c + c) * g.h * g.w;
    float d[4][4];
    for (int r = 0; r < 4; ++r)
      for (int q = 0; q < 4; ++q) {
        const int hi = h0 + r, wi = w0 + q;
        d[r][q] = (hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) ? xc[hi * g.w + wi] : 0.0f;
      }
    float b[4][4];  // B^T d
    for (int q = 0; q < 4; ++q) {
      b[0][q] = d[0][q] - d[2][q];
      b[1][q] = d[1][q] + d[2][q];
      b[2][q] = d[2][q] - d[1][q];
      b[3][q] = d[1][q] - d[3][q];
    }
    const long long plane = static_cast<long long>(g.c) * t_count;
    for (int r = 0; r < 4; ++r) {
      const float row[4] = {b[r][0] - b[r][2], b[r][1] + b[r][2], b[r][2] - b[r][1], b[r][1] - b[r][3]};  // (B^T d) B
      for (int q = 0; q < 4; ++q) v[(r * 4 + q) * plane + i] = row[q];
    }
  }
}

// y tile = A^T M A, A^T = [1 1 1 0; 0 1 -1 -1], clipped at the image edge.
__global__ void __launch_bounds__(THREADS) winograd_output_transform_kernel(ConvGeom g, int tiles_h, int tiles_w,
                                                                           const float* __restrict__ mt,
                                                                           float* __restrict__ y) {
  const int t_count = g.n * tiles_h * tiles_w;
  const long long total = static_cast<long long>(g.m) * t_count;
  const long long plane = total;
  for (long long i = blockIdx.x * static_cast<long long>(THREADS) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * THREADS) {
    const int t = static_cast<int>(i % t_count), m = static_cast<int>(i / t_count);
    const int n = t / (tiles_h * tiles_w), th = t / tiles_w % tiles_h, tw = t % tiles_w;
    float a[4][4];
    for (int e = 0; e < 16; ++e) a[e / 4][e % 4] = mt[e * plane + i];
    float r[2][4];  // A^T M
    for (int q = 0; q < 4; ++q) {
      r[0][q] = a[0][q] + a[1][q] + a[2][q];
      r[1][q] = a[1][q] - a[2][q] - a[3][q];
    }
    float* yp = y + (static_cast<long long>(n) * g.m + m) * g.ho * g.wo;
    for (int p = 0; p < 2; ++p) {
      const int ho = 2 * th + p;
      if (ho >= g.ho) break;
      const float out[2] = {r[p][0] + r[p][1] + r[p][2], r[p][1] - r[p][2] - r[p][3]};  // (A^T M) A
      for (int q = 0; q < 2; ++q) {
        const int wo = 2 * tw + q;
        if (wo < g.wo) yp[ho * g.wo + wo] = out[q];
      }
    }
  }
}

unsigned grid_for(std::size_t work) { return unsigned(std::min<std::size_t>(detail::div_up(work, THREADS), 65536)); }

}  // namespace

bool supports_winograd_f2x3(const ConvSpec& s) {
  if (s.k != 3 || s.stride != 1 || !fits_int32(s)) return false;
  const Sizes z = sizes_of(s);
  constexpr std::size_t LIMIT = std::size_t(1) << 31;
  return z.u < LIMIT && z.v < LIMIT && z.m < LIMIT;
}

std::size_t ws_winograd_f2x3(const ConvSpec& s) {
  const Sizes z = sizes_of(s);
  return padded_bytes(z.u) + padded_bytes(z.v) + padded_bytes(z.m) + gemm_workspace_bytes(s.m, z.t, s.c);
}

void run_winograd_f2x3(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const ConvGeom g = geom_of(s);
  const Sizes z = sizes_of(s);
  auto* base = static_cast<unsigned char*>(call.workspace);
  auto* u = reinterpret_cast<float*>(base);
  auto* v = reinterpret_cast<float*>(base + padded_bytes(z.u));
  auto* mt = reinterpret_cast<float*>(base + padded_bytes(z.u) + padded_bytes(z.v));
  GemmOptions gemm_options;
  gemm_options.stream = call.stream;
  gemm_options.workspace = {base + padded_bytes(z.u) + padded_bytes(z.v) + padded_bytes(z.m),
                            gemm_workspace_bytes(s.m, z.t, s.c)};
  detail::launch("winograd_filter_transform_kernel", winograd_filter_transform_kernel, dim3(grid_for(s.m * s.c)),
                 dim3(THREADS), 0, call.stream, s.m * s.c, g.m, g.c, call.w, u);
  detail::launch("winograd_input_transform_kernel", winograd_input_transform_kernel, dim3(grid_for(s.c * z.t)),
                 dim3(THREADS), 0, call.stream, s.c * z.t, g, int(z.tiles_h), int(z.tiles_w), call.x, v);
  for (std::size_t e = 0; e < 16; ++e)
    gemm(u + e * s.m * s.c, v + e * s.c * z.t, s.m, z.t, s.c, mt + e * s.m * z.t, gemm_options);
  detail::launch("winograd_output_transform_kernel", winograd_output_transform_kernel, dim3(grid_for(s.m * z.t)),
                 dim3(THREADS), 0, call.stream, s.m * z.t, g, int(z.tiles_h), int(z.tiles_w), mt, call.y);
}

}  // namespace tessera::conv_impl
