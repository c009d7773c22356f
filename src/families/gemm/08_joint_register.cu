// Step 8 — joint register and shared-memory tiling (seed 000 "Joint register
// and shared memory tiling"; Volkov & Demmel, SC08; UIUC ECE 508 lecture 4):
// T = 64 threads per block, each computing U = 16 outputs in registers, k
// advancing S = 4 at a time.
//
// Volkov & Demmel keep one operand in registers and the other in shared
// memory. They worked in column-major storage with A in registers; in
// row-major storage the operand whose register loads coalesce is B (the
// seed: "with N in registers, the warp's global accesses are coalesced"),
// so this is their scheme transposed: thread t owns column t of a 16 x 64
// tile of C and holds B[k0..k0+3][col] (S = 4 registers, consecutive threads
// read consecutive columns); the 16 x 4 slab of A (S x U = 64 elements, one
// per thread: S = T / U, no idle loader) sits in shared memory. Every thread
// reads the same A element at the same time (a broadcast), and a row of the
// slab is 4 consecutive floats, one 16-byte LDS.128 per row: 16 LDS.128 per
// 64 FFMA instead of one LDS per FFMA. Registers: U accumulators + S B values.
//
// Bottleneck: 64-thread blocks with 16 outputs each give modest reuse of B
// (each B element is used 16 times) and two barriers per 64 FFMA; the A slab
// loads are 16-byte pieces of 16 rows (half-used 32-byte sectors).
// Expected: ~20-30% of the FP32 rate.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned T = 64;  // threads per block = columns of the C tile (seed: T = 64)
constexpr unsigned U = 16;  // outputs per thread = rows of the C tile (seed: U = 16)
constexpr unsigned S = 4;   // k per step = B registers per thread (seed: S = T / U = 4)
static_assert(S * U == T, "the A slab holds one element per thread");
static_assert(S == 4, "a row of the A slab is one float4");

__global__ __launch_bounds__(T) void gemm_joint_register_kernel(dev::GemmArgs p, unsigned tiles_n) {
  __shared__ float4 a_slab[U];  // a_slab[u] = A[row0 + u][k0 .. k0 + 3]
  const dev::TileOrigin t = dev::tile_origin(tiles_n, U, T);
  const unsigned tid = threadIdx.x;
  const std::size_t col = t.col0 + tid;
  const bool col_ok = col < p.n;
  // This thread's element of the A slab.
  const unsigned load_u = tid / S, load_k = tid % S;
  const std::size_t load_row = t.row0 + load_u;
  float acc[U] = {};
  for (std::size_t k0 = 0; k0 < p.k; k0 += S) {
    float b[S];
#pragma unroll
    for (unsigned s = 0; s < S; ++s) b[s] = col_ok && k0 + s < p.k ? p.b[(k0 + s) * p.ldb + col] : 0.0f;
    reinterpret_cast<float*>(a_slab)[load_u * S + load_k] =
        load_row < p.m && k0 + load_k < p.k ? p.a[load_row * p.lda + k0 + load_k] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned u = 0; u < U; ++u) {
      const float4 a = a_slab[u];
      acc[u] += a.x * b[0];
      acc[u] += a.y * b[1];
      acc[u] += a.z * b[2];
      acc[u] += a.w * b[3];
    }
    __syncthreads();
  }
  if (!col_ok) return;
#pragma unroll
  for (unsigned u = 0; u < U; ++u) {
    const std::size_t row = t.row0 + u;
    if (row < p.m) dev::store_scaled(p.c + row * p.ldc + col, acc[u], p.alpha, p.beta);
  }
}

}  // namespace

void run_joint_register(const GemmCall& call) {
  dev::launch_tiles("gemm_joint_register_kernel", gemm_joint_register_kernel, call, U, T, dim3(T));
}

}  // namespace tessera::gemm_impl
