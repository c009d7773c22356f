// Step 5 — shared-memory tiling of both operands (seed 000 "Tiling shared
// memory" and "handle boundary"; seed 001 "Tiled Matrix Multiplication
// Kernel"), TILE_WIDTH 16 and 32.
//
// What it changes over step 4: B's tile is staged in shared memory too, so
// each element loaded from global memory is used TILE_WIDTH times (seed 001:
// 16 x 16 tiles make 16 flops per float loaded, 32 x 32 make 32). Boundary
// handling as the seed teaches: a load outside A or B writes 0 to the tile
// (so the inner loop needs no test), and only threads inside C store.
// Two barriers per tile: after the loads (tile complete) and after the
// multiply-adds (tile consumed before it is overwritten).
//
// Bottleneck: shared memory. Each multiply-add reads two shared words (one a
// broadcast), so the SM issues one LDS per FFMA and the barrier stalls are
// exposed. Expected: ~10-15% of the FP32 rate; TILE_WIDTH 32 has more reuse
// but 1024-thread blocks (2 per SM), 16 has more blocks to hide barriers.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

template <unsigned TILE_WIDTH>
__global__ __launch_bounds__(TILE_WIDTH* TILE_WIDTH) void gemm_tiled_kernel(dev::GemmArgs p, unsigned tiles_n) {
  __shared__ float a_tile[TILE_WIDTH][TILE_WIDTH];
  __shared__ float b_tile[TILE_WIDTH][TILE_WIDTH];
  const dev::TileOrigin t = dev::tile_origin(tiles_n, TILE_WIDTH, TILE_WIDTH);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = t.row0 + ty, col = t.col0 + tx;
  float sum = 0.0f;
  for (std::size_t k0 = 0; k0 < p.k; k0 += TILE_WIDTH) {
    a_tile[ty][tx] = row < p.m && k0 + tx < p.k ? p.a[row * p.lda + k0 + tx] : 0.0f;
    b_tile[ty][tx] = k0 + ty < p.k && col < p.n ? p.b[(k0 + ty) * p.ldb + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < TILE_WIDTH; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < p.m && col < p.n) dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

template <unsigned TILE_WIDTH>
void run_tiled(const GemmCall& call, const char* name) {
  dev::launch_tiles(name, gemm_tiled_kernel<TILE_WIDTH>, call, TILE_WIDTH, TILE_WIDTH, dim3(TILE_WIDTH, TILE_WIDTH));
}

}  // namespace

void run_tiled_16(const GemmCall& call) { run_tiled<16>(call, "gemm_tiled_kernel<16>"); }
void run_tiled_32(const GemmCall& call) { run_tiled<32>(call, "gemm_tiled_kernel<32>"); }

}  // namespace tessera::gemm_impl
