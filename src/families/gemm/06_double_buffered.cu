// Step 6 — double buffering of the shared tiles (seed 000 "double buffer").
//
// What it changes over step 5 (TILE_WIDTH 32, so only the buffering
// differs): two pairs of shared tiles. While the block multiplies the tiles
// in buffer `cur`, each thread's global loads of the next tiles are already
// in flight (issued into registers before the multiply-adds, stored to the
// other buffer after them), so the load latency hides behind the arithmetic,
// and one barrier per tile suffices: the buffer written in iteration t was
// last read in iteration t - 1, which every thread finished before the
// barrier that ended it.
//
// Bottleneck: still one LDS per FFMA from shared memory (the inner loop is
// step 5's). Expected: 1.1-1.3x tiled_32.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned TILE_WIDTH = 32;  // as tiled_32: the comparison isolates the double buffer

__global__ __launch_bounds__(TILE_WIDTH* TILE_WIDTH) void gemm_double_buffered_kernel(dev::GemmArgs p,
                                                                                    unsigned tiles_n) {
  __shared__ float a_tile[2][TILE_WIDTH][TILE_WIDTH];
  __shared__ float b_tile[2][TILE_WIDTH][TILE_WIDTH];
  const dev::TileOrigin t = dev::tile_origin(tiles_n, TILE_WIDTH, TILE_WIDTH);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = t.row0 + ty, col = t.col0 + tx;
  auto load_a = [&](std::size_t k0) { return row < p.m && k0 + tx < p.k ? p.a[row * p.lda + k0 + tx] : 0.0f; };
  auto load_b = [&](std::size_t k0) { return k0 + ty < p.k && col < p.n ? p.b[(k0 + ty) * p.ldb + col] : 0.0f; };

  float sum = 0.0f;
  if (p.k > 0) {
    a_tile[0][ty][tx] = load_a(0);
    b_tile[0][ty][tx] = load_b(0);
  }
  __syncthreads();
  unsigned cur = 0;
  for (std::size_t k0 = 0; k0 < p.k; k0 += TILE_WIDTH) {
    const bool more = k0 + TILE_WIDTH < p.k;
    float next_a = 0.0f, next_b = 0.0f;
    if (more) {  // in flight during the multiply-adds below
      next_a = load_a(k0 + TILE_WIDTH);
      next_b = load_b(k0 + TILE_WIDTH);
    }
#pragma unroll
    for (unsigned k = 0; k < TILE_WIDTH; ++k) sum += a_tile[cur][ty][k] * b_tile[cur][k][tx];
    if (more) {
      a_tile[cur ^ 1][ty][tx] = next_a;
      b_tile[cur ^ 1][ty][tx] = next_b;
    }
    __syncthreads();
    cur ^= 1;
  }
  if (row < p.m && col < p.n) dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

}  // namespace

void run_double_buffered(const GemmCall& call) {
  dev::launch_tiles("gemm_double_buffered_kernel", gemm_double_buffered_kernel, call, TILE_WIDTH, TILE_WIDTH,
                    dim3(TILE_WIDTH, TILE_WIDTH));
}

}  // namespace tessera::gemm_impl
