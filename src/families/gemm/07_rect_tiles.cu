// Step 7 — non-square input tiles (seed 000 "Tiling block dim", UIUC ECE 508
// lecture 4): the output tile stays T x T = 16 x 16 (one element per
// thread), the input tiles become T x S (A) and S x T (B), S tuned: 8, 32, 64.
//
// What it changes over step 5: reuse is set by the output tile (each loaded
// element still serves T threads), but a deeper slab S amortises each pair of
// barriers over S multiply-adds instead of 16, and each thread issues
// several independent loads per slab (S = 32: 2 + 2, S = 64: 4 + 4) — more
// bytes in flight. S = 8 shows the other side: half the threads idle during
// the loads and twice the barriers. The tiles are loaded with a strided loop
// over the block (k fastest for A, columns fastest for B: both coalesced),
// zero-filled outside the matrices.
//
// Bottleneck: still one LDS per FFMA. Expected: S = 32/64 ~1.2x tiled_16,
// S = 8 slower than tiled_16.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned T = 16;                 // output tile T x T, one element per thread
constexpr unsigned BLOCK_THREADS = T * T;  // 256

template <unsigned S>
__global__ __launch_bounds__(BLOCK_THREADS) void gemm_rect_tiles_kernel(dev::GemmArgs p, unsigned tiles_n) {
  __shared__ float a_tile[T][S];  // rows of A x k slab
  __shared__ float b_tile[S][T];  // k slab x columns of B
  const dev::TileOrigin t = dev::tile_origin(tiles_n, T, T);
  const unsigned tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
  float sum = 0.0f;
  for (std::size_t k0 = 0; k0 < p.k; k0 += S) {
    for (unsigned e = tid; e < T * S; e += BLOCK_THREADS) {
      const unsigned r = e / S, kk = e % S;  // A: k fastest
      const std::size_t row = t.row0 + r, k = k0 + kk;
      a_tile[r][kk] = row < p.m && k < p.k ? p.a[row * p.lda + k] : 0.0f;
    }
    for (unsigned e = tid; e < S * T; e += BLOCK_THREADS) {
      const unsigned kk = e / T, c = e % T;  // B: columns fastest
      const std::size_t k = k0 + kk, col = t.col0 + c;
      b_tile[kk][c] = k < p.k && col < p.n ? p.b[k * p.ldb + col] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < S; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  const std::size_t row = t.row0 + ty, col = t.col0 + tx;
  if (row < p.m && col < p.n) dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

template <unsigned S>
void run_rect(const GemmCall& call, const char* name) {
  dev::launch_tiles(name, gemm_rect_tiles_kernel<S>, call, T, T, dim3(T, T));
}

}  // namespace

void run_rect_tiles_s8(const GemmCall& call) { run_rect<8>(call, "gemm_rect_tiles_kernel<8>"); }
void run_rect_tiles_s32(const GemmCall& call) { run_rect<32>(call, "gemm_rect_tiles_kernel<32>"); }
void run_rect_tiles_s64(const GemmCall& call) { run_rect<64>(call, "gemm_rect_tiles_kernel<64>"); }

}  // namespace tessera::gemm_impl
