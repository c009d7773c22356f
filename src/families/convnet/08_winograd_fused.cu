// Step 8 — Winograd F(2x2, 3x3), fused (seed 000 "ConvNet": cuDNN's Winograd;
// Lavin & Gray's minimal filtering): step 6's three passes in one kernel
// after a small filter transform.
//
//   U[e][c][m] = (G g G^T)[e]        a first kernel, 16 m c floats of workspace
//   per block: BM = 32 filters x BN = 32 output tiles, over c in slices of 8:
//     V = B^T d B of each 4x4 input patch, computed while loading it and
//         stored straight into shared memory (no transformed input in memory)
//     the 16 products M[e] += U[e] V[e], one (position, 8x8 register tile)
//         per thread: 256 threads = 16 positions x 16 sub-tiles of 32 x 32
//   epilogue: y = A^T M A, a linear map of the 16 products, accumulated
//     over two halves of the positions exchanged through shared memory
//     (8 positions at a time fit the 48 KiB of static shared memory)
//
// What it changes over step 6: the transformed input and the 16 products
// never go through global memory (step 6 moves 16 (c t + m t) floats there
// and back, t the tiles), and one launch replaces 16 GEMM calls and two
// transform kernels; the GEMM part keeps step 5's 8 + 8 shared loads per 64
// FMAs. Still 2.25x fewer multiply-adds than the direct form. The next
// slice's U and input patch are loaded into registers while the current one
// is multiplied. k = 3, stride 1 only; any padding. To be measured: the aim
// is cuDNN's Winograd rows (ResNet 3x3 and AlexNet conv3 at batch 64).
#include <cuda_runtime.h>

#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/blocks/launch.cuh"

namespace tessera::conv_impl {

namespace {

constexpr int THREADS = 256;
constexpr int BM = 32, BN = 32, BK = 8;  // filters, tiles, channels per step
constexpr int TM = 8, TN = 8;            // a thread's register tile (one position)
constexpr int POS = 16;                  // the 4x4 transformed positions
constexpr int STAGE = BK * BM + 4;       // floats per position in the main loop (+4: the 16 positions' planes
                                         // start in different banks)
constexpr int ROW = BN + 1;              // the epilogue's row stride (+1: fewer bank conflicts)
constexpr int HALF = POS / 2;
constexpr int MAIN_FLOATS = 2 * POS * STAGE;   // U and V
constexpr int EPI_FLOATS = HALF * BM * ROW;    // 8 positions of 32 x 32 products
constexpr int SMEM_FLOATS = MAIN_FLOATS > EPI_FLOATS ? MAIN_FLOATS : EPI_FLOATS;
static_assert(BK * BN == THREADS, "one input patch per thread per step");
static_assert(POS * (BM / TM) * (BN / TN) == THREADS, "one (position, register tile) per thread");
static_assert(SMEM_FLOATS * 4 <= 48 * 1024, "static shared memory");

// U[e][c][m] = (G g G^T)[e], G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1];
// m fastest, so a block's BM filters of one channel are one coalesced row.
__global__ void __launch_bounds__(THREADS) winograd_fused_filter_kernel(int m, int c, const float* __restrict__ w,
                                                                       float* __restrict__ u) {
  const int i = blockIdx.x * THREADS + threadIdx.x;  // channel-major: i = ci * m + mi
  if (i >= m * c) return;
  const int ci = i / m, mi = i % m;
  const float* g = w + (static_cast<long long>(mi) * c + ci) * 9;
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

// A^T = [1 1 1 0; 0 1 -1 -1]: y[p][q] = sum over e = (r, s) of AT[p][r] AT[q][s] M[e].
__device__ __forceinline__ float at(int p, int r) {
  return p == 0 ? (r < 3 ? 1.0f : 0.0f) : (r == 0 ? 0.0f : (r == 1 ? 1.0f : -1.0f));
}

// One block of 256 threads per SM: the 64 products, the prefetched patch and U
// values and their addresses take ~200 registers (a cap of 128 for two blocks
// spilled 152 bytes; ptxas -v, sm_90).
__global__ void __launch_bounds__(THREADS, 1) winograd_fused_kernel(ConvGeom g, int tiles_h, int tiles_w,
                                                                    const float* __restrict__ x,
                                                                    const float* __restrict__ u,
                                                                    float* __restrict__ y) {
  __shared__ __align__(16) float smem[SMEM_FLOATS];
  float* us = smem;                // [POS][BK][BM] (+4 per position)
  float* vs = smem + POS * STAGE;  // [POS][BK][BN] (+4 per position)
  const int tid = threadIdx.x;
  const int t_count = g.n * tiles_h * tiles_w;
  const int t0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
  const long long u_plane = static_cast<long long>(g.m) * g.c;

  // This thread's input patch: channel kk of each slice, tile t0 + tn.
  const int kk_load = tid / BN, tn_load = tid % BN;
  const int my_tile = t0 + tn_load;
  const bool tile_ok = my_tile < t_count;
  int h0 = 0, w0 = 0;
  const float* x_img = x;
  if (tile_ok) {
    const int n = my_tile / (tiles_h * tiles_w), th = my_tile / tiles_w % tiles_h, tw = my_tile % tiles_w;
    h0 = 2 * th - g.pad;
    w0 = 2 * tw - g.pad;
    x_img = x + static_cast<long long>(n) * g.c * g.h * g.w;
  }
  // This thread's U values: 16 per slice, (e, kk, mm) = (j, tid / BM, tid % BM).
  const int kk_u = tid / BM, mm_u = tid % BM;
  const bool filter_ok = m0 + mm_u < g.m;

  float d[4][4];  // the next slice's input patch
  float un[POS];  // the next slice's U values
  auto load = [&](int c0) {
    const int ci = c0 + kk_load;
    const bool ok = tile_ok && ci < g.c;
    const float* xc = x_img + static_cast<long long>(ci) * g.h * g.w;
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int hi = h0 + r, wi = w0 + q;
        d[r][q] = (ok && hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) ? __ldg(xc + hi * g.w + wi) : 0.0f;
      }
    const int cu = c0 + kk_u;
    const bool uok = filter_ok && cu < g.c;
    const float* up = u + static_cast<long long>(cu) * g.m + m0 + mm_u;
#pragma unroll
    for (int e = 0; e < POS; ++e) un[e] = uok ? __ldg(up + e * u_plane) : 0.0f;
  };
  // B^T d B into shared memory, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1].
  auto store = [&]() {
    float b[4][4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      b[0][q] = d[0][q] - d[2][q];
      b[1][q] = d[1][q] + d[2][q];
      b[2][q] = d[2][q] - d[1][q];
      b[3][q] = d[1][q] - d[3][q];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const float row[4] = {b[r][0] - b[r][2], b[r][1] + b[r][2], b[r][2] - b[r][1], b[r][1] - b[r][3]};
#pragma unroll
      for (int q = 0; q < 4; ++q) vs[(r * 4 + q) * STAGE + kk_load * BN + tn_load] = row[q];
    }
#pragma unroll
    for (int e = 0; e < POS; ++e) us[e * STAGE + kk_u * BM + mm_u] = un[e];
  };

  // The compute mapping: position e, an 8x8 tile at (mi0, ni0) of the 32 x 32.
  const int e_mine = tid / 16, sub = tid % 16;
  const int mi0 = (sub / 4) * TM, ni0 = (sub % 4) * TN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  load(0);
  for (int c0 = 0; c0 < g.c; c0 += BK) {
    __syncthreads();  // the previous slice's products are done with shared memory
    store();
    __syncthreads();
    if (c0 + BK < g.c) load(c0 + BK);  // in flight during the products below
    const float* ue = us + e_mine * STAGE + mi0;
    const float* ve = vs + e_mine * STAGE + ni0;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(ue + kk * BM);
      const float4 a1 = *reinterpret_cast<const float4*>(ue + kk * BM + 4);
      const float4 b0 = *reinterpret_cast<const float4*>(ve + kk * BN);
      const float4 b1 = *reinterpret_cast<const float4*>(ve + kk * BN + 4);
      const float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }

  // Epilogue: 4 (filter, tile) pairs per thread, (mm, tn) = (p / BN, p % BN)
  // for p = tid + 256 j; their 2x2 outputs summed over the two halves.
  float out[4][2][2] = {};
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    __syncthreads();  // shared memory free (main loop or the previous half)
    if (e_mine / HALF == half) {
      float* me = smem + (e_mine % HALF) * BM * ROW;
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) me[(mi0 + i) * ROW + ni0 + j] = acc[i][j];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int p = tid + THREADS * k, mm = p / BN, tn = p % BN;
#pragma unroll
      for (int el = 0; el < HALF; ++el) {
        const int e = half * HALF + el, r = e / 4, s = e % 4;
        const float v = smem[el * BM * ROW + mm * ROW + tn];
#pragma unroll
        for (int pp = 0; pp < 2; ++pp)
#pragma unroll
          for (int qq = 0; qq < 2; ++qq) out[k][pp][qq] = fmaf(at(pp, r) * at(qq, s), v, out[k][pp][qq]);
      }
    }
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int p = tid + THREADS * k, mm = p / BN, tn = p % BN;
    const int mi = m0 + mm, t = t0 + tn;
    if (mi >= g.m || t >= t_count) continue;
    const int n = t / (tiles_h * tiles_w), th = t / tiles_w % tiles_h, tw = t % tiles_w;
    float* yp = y + (static_cast<long long>(n) * g.m + mi) * g.ho * g.wo;
#pragma unroll
    for (int pp = 0; pp < 2; ++pp) {
      const int ho = 2 * th + pp;
      if (ho >= g.ho) continue;
#pragma unroll
      for (int qq = 0; qq < 2; ++qq) {
        const int wo = 2 * tw + qq;
        if (wo < g.wo) yp[ho * g.wo + wo] = out[k][pp][qq];
      }
    }
  }
}

std::size_t tiles_of(const ConvSpec& s) { return s.n * ((s.ho + 1) / 2) * ((s.wo + 1) / 2); }

}  // namespace

bool supports_winograd_fused(const ConvSpec& s) {
  if (s.k != 3 || s.stride != 1 || !fits_int32(s)) return false;
  constexpr std::size_t LIMIT = std::size_t(1) << 31;
  return 16 * s.m * s.c < LIMIT && tiles_of(s) < LIMIT && detail::div_up(s.m, std::size_t(BM)) <= 65535;
}

std::size_t ws_winograd_fused(const ConvSpec& s) { return 16 * s.m * s.c * sizeof(float); }

void run_winograd_fused(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const ConvGeom g = geom_of(s);
  const int tiles_h = int((s.ho + 1) / 2), tiles_w = int((s.wo + 1) / 2);
  auto* u = static_cast<float*>(call.workspace);
  const std::size_t filters = s.m * s.c;
  detail::launch("winograd_fused_filter_kernel", winograd_fused_filter_kernel,
                 dim3(unsigned(detail::div_up(filters, std::size_t(THREADS)))), dim3(THREADS), 0, call.stream, filters,
                 g.m, g.c, call.w, u);
  const dim3 grid(unsigned(detail::div_up(tiles_of(s), std::size_t(BN))), unsigned(detail::div_up(s.m, std::size_t(BM))));
  detail::launch("winograd_fused_kernel", winograd_fused_kernel, grid, dim3(THREADS), 0, call.stream, tiles_of(s), g,
                 tiles_h, tiles_w, call.x, static_cast<const float*>(u), call.y);
}

}  // namespace tessera::conv_impl
