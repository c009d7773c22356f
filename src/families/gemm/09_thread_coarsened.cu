// Step 9 — thread coarsening with register fragments (seed 000 "Thread
// coarsening on shared memory tiling"): each thread computes rm x rn = 8 x 8
// outputs of a 128 x 128 block tile, k slabs of 8, 256 threads.
//
// What it changes over step 8: per k, a thread loads 8 values of A and 8 of
// B from shared memory into registers and does 64 multiply-adds with them —
// rm*rn / (rm + rn) = 4 FFMA per shared word instead of 1/2 (step 5). To
// make those 8 + 8 values two 16-byte LDS.128 each, the A tile is stored
// transposed in shared memory (k-major: a_tile[k][row]), so a thread's 8 rows
// at one k are contiguous. Global loads are 16-byte too (one float4 of A and
// one of B per thread per slab) when the rows are 16-byte aligned (ld % 4 ==
// 0, aligned base), else guarded scalar loads; zero-fill outside.
//
// Bottleneck: one shared buffer, so the slab's global loads are exposed
// between the two barriers; the transposed stores of A are 2-way bank
// conflicted; the fragment reads of neighbouring threads are 64 bytes apart
// (2-way conflicts); 128 registers of state per thread limit occupancy.
// Expected: ~45-60% of the FP32 rate.
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned BM = 128, BN = 128, BK = 8;  // block tile: 256 float4 of A and of B per slab
constexpr unsigned RM = 8, RN = 8;              // outputs per thread (rm x rn)
constexpr unsigned THREADS = (BM / RM) * (BN / RN);
static_assert(THREADS == 256, "one float4 of A and one of B per thread per slab");
static_assert(BM * BK / 4 == THREADS && BN * BK / 4 == THREADS, "one 16-byte load per operand per thread");

// Four consecutive elements p[0..3] of a row with `left` elements from p on:
// one 16-byte load when aligned and whole, else guarded scalars, zeros past the row.
__device__ __forceinline__ float4 load4(const float* p, std::size_t left, bool vec) {
  if (vec && left >= 4) return *reinterpret_cast<const float4*>(p);
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (left > 0) v.x = p[0];
  if (left > 1) v.y = p[1];
  if (left > 2) v.z = p[2];
  if (left > 3) v.w = p[3];
  return v;
}

__global__ __launch_bounds__(THREADS) void gemm_thread_coarsened_kernel(dev::GemmArgs p, unsigned tiles_n, bool a_vec,
                                                                        bool b_vec, bool c_vec) {
  __shared__ __align__(16) float a_tile[BK][BM];  // transposed: a_tile[k][row]
  __shared__ __align__(16) float b_tile[BK][BN];
  const dev::TileOrigin t = dev::tile_origin(tiles_n, BM, BN);
  const unsigned tid = threadIdx.x;
  // Loads: A row tid / 2, k quad (tid % 2) * 4; B k row tid / 32, column quad (tid % 32) * 4.
  const unsigned a_r = tid / 2, a_k = (tid % 2) * 4, b_k = tid / 32, b_c = (tid % 32) * 4;
  const std::size_t a_row = t.row0 + a_r, b_col = t.col0 + b_c;
  // Compute: rows ty*8 .. +7, columns tx*8 .. +7.
  const unsigned ty = tid / (BN / RN), tx = tid % (BN / RN);

  float acc[RM][RN] = {};
  for (std::size_t k0 = 0; k0 < p.k; k0 += BK) {
    const std::size_t ak = k0 + a_k, bk = k0 + b_k;
    const float4 av = a_row < p.m && ak < p.k ? load4(p.a + a_row * p.lda + ak, p.k - ak, a_vec)
                                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const float4 bv = bk < p.k && b_col < p.n ? load4(p.b + bk * p.ldb + b_col, p.n - b_col, b_vec)
                                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();  // the previous slab is consumed
    a_tile[a_k + 0][a_r] = av.x;
    a_tile[a_k + 1][a_r] = av.y;
    a_tile[a_k + 2][a_r] = av.z;
    a_tile[a_k + 3][a_r] = av.w;
    *reinterpret_cast<float4*>(&b_tile[b_k][b_c]) = bv;
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < BK; ++k) {
      float a[RM], b[RN];
#pragma unroll
      for (unsigned q = 0; q < RM; q += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&a_tile[k][ty * RM + q]);
        a[q] = v.x, a[q + 1] = v.y, a[q + 2] = v.z, a[q + 3] = v.w;
      }
#pragma unroll
      for (unsigned q = 0; q < RN; q += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&b_tile[k][tx * RN + q]);
        b[q] = v.x, b[q + 1] = v.y, b[q + 2] = v.z, b[q + 3] = v.w;
      }
#pragma unroll
      for (unsigned i = 0; i < RM; ++i)
#pragma unroll
        for (unsigned j = 0; j < RN; ++j) acc[i][j] += a[i] * b[j];
    }
  }

#pragma unroll
  for (unsigned i = 0; i < RM; ++i) {
    const std::size_t row = t.row0 + ty * RM + i;
    if (row >= p.m) break;
    float* c = p.c + row * p.ldc;
#pragma unroll
    for (unsigned q = 0; q < RN; q += 4) {
      const float v[4] = {acc[i][q], acc[i][q + 1], acc[i][q + 2], acc[i][q + 3]};
      dev::store4_scaled(c, t.col0 + tx * RN + q, p.n, v, p.alpha, p.beta, c_vec);
    }
  }
}

}  // namespace

void run_thread_coarsened(const GemmCall& call) {
  const auto& s = call.spec;
  if (s.m == 0 || s.n == 0) return;
  const char* name = "gemm_thread_coarsened_kernel";
  const unsigned tiles = dev::tile_count(s.m, s.n, BM, BN, name);
  const auto tiles_n = static_cast<unsigned>(detail::div_up(s.n, BN));
  detail::launch(name, gemm_thread_coarsened_kernel, dim3(tiles), dim3(THREADS), 0, call.stream, s.m * s.n,
                 dev::args_of(call), tiles_n, dev::rows_aligned16(call.a, s.lda), dev::rows_aligned16(call.b, s.ldb),
                 dev::rows_aligned16(call.c, s.ldc));
}

}  // namespace tessera::gemm_impl
