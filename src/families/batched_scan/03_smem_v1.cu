// Step 3 — seed 002's gpu_cumsum_smem_v1: step 2 (PAD = 1) with the bounds
// checks peeled out of the loops. Groups of 32 whole rows and chunks of 32
// whole columns run unrolled, unguarded loops (FULL_ROWS = true, the column
// loop up to len & ~31); the last partial group of rows and the ragged last
// chunk run the guarded code once. Same semantics and float-only
// accumulation as step 2 (the seed's own version also has its ragged-row
// block take a different path through a `goto`; here a template parameter).
//
// Bottleneck: unchanged from step 2 — latency of one warp per 32 rows and
// two passes through DRAM; the seed measured "a small gain" from removing
// branches because the kernel is memory-bound. Expected: ~1.1x step 2 PAD=1.
#include "families/batched_scan/common.cuh"
#include "families/batched_scan/cuda_rungs.hpp"
#include "families/batched_scan/seed_common.cuh"

namespace tessera::batched_scan_impl {

namespace {

using gpu_detail::SEED_WARP;
constexpr int PAD = 1;  // step 2's conflict-free tile

template <bool FULL_ROWS>
__device__ __forceinline__ void smem_v1_pass(const float* src, std::size_t src_pitch, float* dst,
                                             std::size_t dst_pitch, std::size_t i, unsigned nrows, std::size_t len,
                                             bool reverse, bool exclusive, float (&tile)[SEED_WARP][SEED_WARP + PAD]) {
  const unsigned lane = threadIdx.x;
  const float* s0 = src + i * src_pitch;
  float* d0 = dst + i * dst_pitch;
  const std::size_t len32 = len & ~static_cast<std::size_t>(SEED_WARP - 1);
  float sum = 0.0f;
  // Whole chunks: no column checks; whole row groups: no row checks either.
  for (std::size_t j = 0; j < len32; j += SEED_WARP) {
    const std::size_t col = reverse ? len - 1 - (j + lane) : j + lane;
    if constexpr (FULL_ROWS) {
#pragma unroll
      for (unsigned k = 0; k < SEED_WARP; ++k) tile[k][lane] = s0[k * src_pitch + col];
    } else {
      for (unsigned k = 0; k < nrows; ++k) tile[k][lane] = s0[k * src_pitch + col];
    }
    __syncwarp();
    if (FULL_ROWS || lane < nrows) {
#pragma unroll
      for (unsigned k = 0; k < SEED_WARP; ++k) {
        const float before = sum;
        sum += tile[lane][k];
        tile[lane][k] = exclusive ? before : sum;
      }
    }
    __syncwarp();
    if constexpr (FULL_ROWS) {
#pragma unroll
      for (unsigned k = 0; k < SEED_WARP; ++k) d0[k * dst_pitch + col] = tile[k][lane];
    } else {
      for (unsigned k = 0; k < nrows; ++k) d0[k * dst_pitch + col] = tile[k][lane];
    }
    __syncwarp();
  }
  // The ragged last chunk, peeled: `left` < 32 columns.
  const unsigned left = static_cast<unsigned>(len - len32);
  if (left == 0) return;
  const bool ok = lane < left;
  const std::size_t col = reverse ? len - 1 - (len32 + lane) : len32 + lane;
  if (ok)
    for (unsigned k = 0; k < nrows; ++k) tile[k][lane] = s0[k * src_pitch + col];
  __syncwarp();
  if (lane < nrows)
    for (unsigned k = 0; k < left; ++k) {
      const float before = sum;
      sum += tile[lane][k];
      tile[lane][k] = exclusive ? before : sum;
    }
  __syncwarp();
  if (ok)
    for (unsigned k = 0; k < nrows; ++k) d0[k * dst_pitch + col] = tile[k][lane];
  __syncwarp();
}

template <bool FULL_ROWS>
__device__ __forceinline__ void smem_v1_rows(const float* in, std::size_t in_pitch, float* out,
                                             std::size_t out_pitch, std::size_t i, unsigned nrows, std::size_t len,
                                             ScanDirection dir, bool exclusive,
                                             float (&tile)[SEED_WARP][SEED_WARP + PAD]) {
  if (dir == ScanDirection::backward) {
    smem_v1_pass<FULL_ROWS>(in, in_pitch, out, out_pitch, i, nrows, len, true, exclusive, tile);
    return;
  }
  smem_v1_pass<FULL_ROWS>(in, in_pitch, out, out_pitch, i, nrows, len, false, exclusive, tile);
  if (dir == ScanDirection::forward_backward)
    smem_v1_pass<FULL_ROWS>(out, out_pitch, out, out_pitch, i, nrows, len, true, exclusive, tile);
}

__global__ __launch_bounds__(SEED_WARP) void batched_scan_smem_v1_kernel(const float* in, std::size_t in_pitch,
                                                                         float* out, std::size_t out_pitch,
                                                                         std::size_t rows, std::size_t len,
                                                                         ScanDirection dir, bool exclusive) {
  __shared__ float tile[SEED_WARP][SEED_WARP + PAD];
  const std::size_t full_groups = rows / SEED_WARP;
  const std::size_t groups = (rows + SEED_WARP - 1) / SEED_WARP;
  for (std::size_t g = blockIdx.x; g < groups; g += gridDim.x) {
    const std::size_t i = g * SEED_WARP;
    if (g < full_groups) smem_v1_rows<true>(in, in_pitch, out, out_pitch, i, SEED_WARP, len, dir, exclusive, tile);
    else smem_v1_rows<false>(in, in_pitch, out, out_pitch, i, static_cast<unsigned>(rows - i), len, dir, exclusive, tile);
  }
}

}  // namespace

void run_smem_v1(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  const unsigned grid = gpu_detail::seed_grid(s.rows, SEED_WARP, "batched_scan_smem_v1_kernel", s);
  detail::launch("batched_scan_smem_v1_kernel", batched_scan_smem_v1_kernel, dim3(grid), dim3(SEED_WARP), 0,
                 call.stream, s.rows * s.len, call.in, s.in_pitch, call.out, s.out_pitch, s.rows, s.len, s.direction,
                 s.exclusive);
}
std::size_t ws_smem_v1(const ScanSpec&) { return 0; }
bool supports_smem_v1(const ScanSpec& s) { return gpu_detail::seed_supports(s); }

}  // namespace tessera::batched_scan_impl
