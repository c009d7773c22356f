// Step 12 — C = A*A^T, strided naive (seed 000 "GEMM C=AA^T", Simple Blocked
// CUDA Code; CUDA C++ Best Practices Guide 9.2.3.3): a w x w block (w = 32)
// per tile of C, one thread per element, C_ij = sum_k A_ik A_jk read straight
// from global memory.
//
// What it shows: A^T's element for thread (i, j) is A[j][k]; the 32 threads
// of a warp have 32 consecutive j, so one warp-wide load touches 32 rows of A
// lda floats apart — 32 sectors of 32 bytes for 128 useful bytes (stride-w
// access, 1/8 efficiency). L1 keeps some of each row for the next k; the
// wasted bandwidth dominates. Expected: below the A*B naive rate, ~1-3% of
// the FP32 rate.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned TILE_DIM = 32;  // w: one warp per row of the C tile, as in the guide

__global__ __launch_bounds__(TILE_DIM* TILE_DIM) void gemm_aat_naive_kernel(dev::GemmArgs p, unsigned tiles_n) {
  const dev::TileOrigin t = dev::tile_origin(tiles_n, TILE_DIM, TILE_DIM);
  const std::size_t row = t.row0 + threadIdx.y, col = t.col0 + threadIdx.x;
  if (row >= p.m || col >= p.m) return;
  const float* a = p.a + row * p.lda;
  const float* at = p.a + col * p.lda;  // column `col` of A^T: row `col` of A
  float sum = 0.0f;
  for (std::size_t k = 0; k < p.k; ++k) sum += a[k] * at[k];
  dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

}  // namespace

void run_aat_naive(const GemmCall& call) {
  dev::launch_tiles("gemm_aat_naive_kernel", gemm_aat_naive_kernel, call, TILE_DIM, TILE_DIM, dim3(TILE_DIM, TILE_DIM));
}

}  // namespace tessera::gemm_impl
