// Step 2 — naive (seed 000 "GEMM C=AB", Naive CUDA Code; seed 001 "Base
// Matrix Multiplication Kernel"): one thread per element of C, both operands
// read from global memory inside the k loop.
//
// Each multiply-add loads one element of A and one of B (8 bytes per 2
// flops). In a 16 x 16 block a warp covers 2 rows x 16 columns: B's loads are
// coalesced (64-byte runs), A's are two broadcast addresses. Nothing is
// reused on chip except by chance in L1, so the kernel is bound by the
// load/store path: L1 and L2 bandwidth and latency, not DRAM.
// Expected: ~3-5% of the FP32 rate (2-3 TFLOP/s on an H100).
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned BLOCK_DIM = 16;  // 16 x 16 = 256 threads, the PMPP base kernel's block

__global__ __launch_bounds__(BLOCK_DIM* BLOCK_DIM) void gemm_naive_kernel(dev::GemmArgs p, unsigned tiles_n) {
  const dev::TileOrigin t = dev::tile_origin(tiles_n, BLOCK_DIM, BLOCK_DIM);
  const std::size_t row = t.row0 + threadIdx.y, col = t.col0 + threadIdx.x;
  if (row >= p.m || col >= p.n) return;
  const float* a = p.a + row * p.lda;
  const float* b = p.b + col;
  float sum = 0.0f;
  for (std::size_t k = 0; k < p.k; ++k, b += p.ldb) sum += a[k] * *b;
  dev::store_scaled(p.c + row * p.ldc + col, sum, p.alpha, p.beta);
}

}  // namespace

void run_naive(const GemmCall& call) {
  dev::launch_tiles("gemm_naive_kernel", gemm_naive_kernel, call, BLOCK_DIM, BLOCK_DIM, dim3(BLOCK_DIM, BLOCK_DIM));
}

}  // namespace tessera::gemm_impl
