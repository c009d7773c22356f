// SpMV step 8 (the API's pick for short rows) — csr_scalar with a guard:
// a thread per row up to GUARD_CUT entries, and each longer row taken by
// its whole block.
//
// Why: on short regular rows (the 5-point Laplacian, mean 5) one thread per
// row is the fastest CSR schedule there is (csr_scalar: 100 % of copy on
// the H100, 1.24x cuSPARSE): a warp's rows are neighbours in memory, so its
// loads share sectors after all, and nothing is spent on searching or
// reducing. Its fault is a long row: one thread walks it alone and the whole
// launch waits (26 ms on the power law). Here a thread whose row passes the
// cut leaves it; after the short rows, the block (__syncthreads_or: one
// barrier when no row is long) sums each flagged row with all 256 threads,
// in row order, through a fixed reduction tree: deterministic, and a 1e5-long
// row costs ~400 strided steps of a block instead of 1e5 steps of a thread.
// Expected: csr_scalar's time on short regular rows; on any matrix, never a
// stall longer than its longest row / 256 steps.
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace {

constexpr std::int64_t GUARD_CUT = 32;  // a 32-step chain: ~16 us at worst
constexpr int WARPS = gpu::BLOCK_THREADS / 32;

template <class T>
__device__ __forceinline__ T warp_total(T v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

template <class T>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void csr_scalar_guarded_kernel(
    std::int64_t rows, const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
    const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta) {
  __shared__ unsigned long_mask[WARPS];
  __shared__ T partial[WARPS];
  const std::int64_t first = blockIdx.x * std::int64_t(gpu::BLOCK_THREADS);
  const std::int64_t r = first + threadIdx.x;
  const int lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
  bool is_long = false;
  if (r < rows) {
    const std::int64_t begin = off[r], end = off[r + 1];
    is_long = end - begin > GUARD_CUT;
    if (!is_long) {
      T sum = 0;
      for (std::int64_t k = begin; k < end; ++k) sum += val[k] * gpu::load_x(x, col[k]);
      gpu::write_row(y, r, sum, alpha, beta);
    }
  }
  const unsigned mask = __ballot_sync(0xffffffffu, is_long);
  if (lane == 0) long_mask[warp] = mask;
  if (!__syncthreads_or(is_long)) return;  // the regular case: no row of this block is long
  for (int w = 0; w < WARPS; ++w)
    for (unsigned m = long_mask[w]; m != 0; m &= m - 1) {
      const std::int64_t row = first + w * 32 + __ffs(m) - 1;
      T sum = 0;
      const std::int64_t end = off[row + 1];
#pragma unroll 4
      for (std::int64_t k = off[row] + threadIdx.x; k < end; k += gpu::BLOCK_THREADS)
        sum += val[k] * gpu::load_x(x, col[k]);
      sum = warp_total(sum);
      if (lane == 0) partial[warp] = sum;
      __syncthreads();
      if (warp == 0) {
        const T total = warp_total(lane < WARPS ? partial[lane] : T(0));
        if (lane == 0) gpu::write_row(y, row, total, alpha, beta);
      }
      __syncthreads();  // partial[] is reused by the next long row
    }
}

}  // namespace

void run_csr_scalar_guarded(const SpmvCall& c) {
  if (c.spec.rows == 0) return;
  gpu::dispatch_value(c.spec.dtype, "csr_scalar_guarded", [&]<class T>() {
    detail::launch("spmv_csr_scalar_guarded_kernel", csr_scalar_guarded_kernel<T>,
                   dim3(gpu::blocks_for(c.spec.rows, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, c.stream,
                   std::size_t(c.spec.rows), c.spec.rows, c.a.row_offsets, c.a.col_indices,
                   static_cast<const T*>(c.a.values), static_cast<const T*>(c.x), static_cast<T*>(c.y), T(c.alpha),
                   T(c.beta));
  });
}
std::size_t ws_csr_scalar_guarded(const SpmvSpec&) { return 0; }
bool supports_csr_scalar_guarded(const SpmvSpec& s) { return gpu::csr_supports(s); }

}  // namespace tessera::spmv_impl
