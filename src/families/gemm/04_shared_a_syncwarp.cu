// Step 4 — A's tile in shared memory, synchronised by __syncwarp only (seed
// 000 "Tiling shared memory for A"; Best Practices Guide 9.2.3.2,
// coalescedMultiply).
//
// What it changes over step 3: each warp loads its row of the 32 x 32 A tile
// with one coalesced 128-byte read (thread x reads element x), then every
// thread reads the row back from shared memory (a broadcast: no bank
// conflict). Only the warp that wrote a row reads it, so __syncwarp() orders
// the write and the reads, and a second __syncwarp() keeps the next slab's
// write from overtaking slower reads of this one — no block-wide barrier.
// Boundary: threads past k or m load zeros; threads past n still load and
// reach both __syncwarp() calls (no early return), then skip the store.
//
// Bottleneck: B still comes from global memory once per multiply-add (4
// bytes per 2 flops through L1/L2). Expected: 1.3-2x step 3.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned TILE_DIM = 32;  // one warp per tile row: the row is the warp's private data

__global__ __launch_bounds__(TILE_DIM* TILE_DIM) void gemm_shared_a_syncwarp_kernel(dev::GemmArgs p,
                                                                                  unsigned tiles_n) {
  __shared__ float a_tile[TILE_DIM][TILE_DIM];
  const dev::TileOrigin t = dev::tile_origin(tiles_n, TILE_DIM, TILE_DIM);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = t.row0 + ty, col = t.col0 + tx;
  const bool row_ok = row < p.m, col_ok = col < p.n;
  const float* a = p.a + (row_ok ? row : 0) * p.lda;
  float sum = 0.0f;
  for (std::size_t k0 = 0; k0 < p.k; k0 += TILE_DIM) {
    a_tile[ty][tx] = row_ok && k0 + tx < p.k ? a[k0 + tx] : 0.0f;
    __syncwarp();
    const unsigned width = static_cast<unsigned>(p.k - k0 < TILE_DIM ? p.k - k0 : TILE_DIM);
    if (col_ok) {
      const float* b = p.b + k0 * p.ldb + col;
      for (unsigned i = 0; i < width; ++i) sum += a_tile[ty][i] * b[i * p.ldb];
    }
    __syncwarp();
  }
  if (row_ok && col_ok) dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

}  // namespace

void run_shared_a_syncwarp(const GemmCall& call) {
  dev::launch_tiles("gemm_shared_a_syncwarp_kernel", gemm_shared_a_syncwarp_kernel, call, TILE_DIM, TILE_DIM,
                    dim3(TILE_DIM, TILE_DIM));
}

}  // namespace tessera::gemm_impl
