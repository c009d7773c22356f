// Steps 13 and 14 — C = A*A^T through shared memory (seed 000 "GEMM C=AA^T",
// Tiling shared memory and Avoid shared memory bank conflict; Best Practices
// Guide 9.2.3.3, coalescedMultiply with transposedTile): 32 x 32 tiles.
//
// Step 13 (transposed tile): both tiles are read from A with coalesced rows
// (thread x reads element x of a row). The A^T tile is *stored* transposed,
// t_tile[x][y] = A[col0 + y][k0 + x], so that the multiply-adds read it along
// a row (t_tile[k][tx]: unit stride, conflict-free). The price is the store:
// the 32 threads of a warp (fixed y, x = 0..31) write one column, 32 words
// 32 apart — all in one bank, a 32-way conflict on every tile load.
//
// Step 14 (padded tile): t_tile rows of TILE + 1 floats. A column's words are
// then 33 apart, i.e. in 32 different banks: the conflict is gone, the reads
// stay conflict-free, and the global reads must not change (they stay
// coalesced). Boundary: zero-fill past m and k, guarded stores.
//
// Bottleneck: one LDS per FFMA, as the A*B tiled kernel. Expected: step 13
// ~5-8% of the FP32 rate, step 14 ~10-15% (the A*B tiled_32 rate).
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned TILE_DIM = 32;

template <unsigned PAD>
__global__ __launch_bounds__(TILE_DIM* TILE_DIM) void gemm_aat_shared_tile_kernel(dev::GemmArgs p,
                                                                                  unsigned tiles_n) {
  __shared__ float a_tile[TILE_DIM][TILE_DIM];
  __shared__ float t_tile[TILE_DIM][TILE_DIM + PAD];  // t_tile[k][j] = A[col0 + j][k0 + k]
  const dev::TileOrigin t = dev::tile_origin(tiles_n, TILE_DIM, TILE_DIM);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = t.row0 + ty, col = t.col0 + tx;
  const std::size_t t_row = t.col0 + ty;  // the row of A this thread copies into t_tile
  float sum = 0.0f;
  for (std::size_t k0 = 0; k0 < p.k; k0 += TILE_DIM) {
    const std::size_t k = k0 + tx;
    a_tile[ty][tx] = row < p.m && k < p.k ? p.a[row * p.lda + k] : 0.0f;
    t_tile[tx][ty] = t_row < p.m && k < p.k ? p.a[t_row * p.lda + k] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned i = 0; i < TILE_DIM; ++i) sum += a_tile[ty][i] * t_tile[i][tx];
    __syncthreads();
  }
  if (row < p.m && col < p.m) dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

}  // namespace

void run_aat_transposed_tile(const GemmCall& call) {
  dev::launch_tiles("gemm_aat_shared_tile_kernel<0>", gemm_aat_shared_tile_kernel<0>, call, TILE_DIM, TILE_DIM,
                    dim3(TILE_DIM, TILE_DIM));
}

void run_aat_padded_tile(const GemmCall& call) {
  dev::launch_tiles("gemm_aat_shared_tile_kernel<1>", gemm_aat_shared_tile_kernel<1>, call, TILE_DIM, TILE_DIM,
                    dim3(TILE_DIM, TILE_DIM));
}

}  // namespace tessera::gemm_impl
