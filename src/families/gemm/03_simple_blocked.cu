// Step 3 — simple blocked w x w (seed 000 "Simple Blocked CUDA Code"; CUDA
// C++ Best Practices Guide 9.2.3.2, simpleMultiply): a w x w block of
// threads, w = warp size, computes a w x w tile of C; each warp computes one
// row of the tile. The guide's A is M x w (one w-wide slab); any K is the
// loop over K / w such slabs.
//
// What it shows: in every iteration all 32 threads of a warp read the *same*
// element of A. The warp's request fetches a 32-byte sector and uses 4 bytes
// of it; the next iteration needs the next 4 bytes of the same sector, which
// with many warps in flight has often been evicted from L1 by then, so A's
// reads waste up to 7/8 of the bandwidth they move. B's reads are one
// coalesced 128-byte row per iteration. Still no on-chip reuse by design.
// Expected: about the naive kernel's rate, ~3-5% of the FP32 rate.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned TILE_DIM = 32;  // w: one warp per row of the C tile

__global__ __launch_bounds__(TILE_DIM* TILE_DIM) void gemm_simple_blocked_kernel(dev::GemmArgs p, unsigned tiles_n) {
  const dev::TileOrigin t = dev::tile_origin(tiles_n, TILE_DIM, TILE_DIM);
  const std::size_t row = t.row0 + threadIdx.y, col = t.col0 + threadIdx.x;
  if (row >= p.m || col >= p.n) return;
  const float* a = p.a + row * p.lda;
  float sum = 0.0f;
  for (std::size_t k0 = 0; k0 < p.k; k0 += TILE_DIM) {  // one w-wide slab of A per pass
    const unsigned width = static_cast<unsigned>(p.k - k0 < TILE_DIM ? p.k - k0 : TILE_DIM);
    const float* b = p.b + k0 * p.ldb + col;
    for (unsigned i = 0; i < width; ++i) sum += a[k0 + i] * b[i * p.ldb];
  }
  dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

}  // namespace

void run_simple_blocked(const GemmCall& call) {
  dev::launch_tiles("gemm_simple_blocked_kernel", gemm_simple_blocked_kernel, call, TILE_DIM, TILE_DIM,
                    dim3(TILE_DIM, TILE_DIM));
}

}  // namespace tessera::gemm_impl
