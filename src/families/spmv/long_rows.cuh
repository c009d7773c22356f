// The rows past a thread-per-row format's cut (formats::LongRows), summed in
// the same run as the format (jds, jds_ell_sections, sell_c_sigma): a warp
// per long row, a block per huge one (past formats::HUGE_ROW), so that no
// row length serialises on one thread. Each row's lanes reduce in a fixed
// tree (deterministic), and the format never holds these rows: every y row
// is written exactly once.
#pragma once

#include "families/spmv/common.cuh"

namespace tessera::spmv_impl::gpu {

inline constexpr int LONG_ROW_THREADS = 512;

template <class T>
__device__ __forceinline__ T long_row_partial(const LongRowsView& l, std::int64_t i, int lane, int lanes,
                                              const T* __restrict__ x) {
  const T* __restrict__ val = static_cast<const T*>(l.val);
  const std::int64_t end = l.offsets[i + 1];
  T sum = 0;
#pragma unroll 4
  for (std::int64_t k = l.offsets[i] + lane; k < end; k += lanes) sum += val[k] * load_x(x, l.col[k]);
  return sum;
}

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// One launch for both kinds, so the huge rows' long chains overlap the
// warp rows instead of running alone: blocks [0, huge) take a huge row each
// (all 512 threads); every later block takes 16 rows of [huge, count), a warp
// each.
template <class T>
__global__ __launch_bounds__(LONG_ROW_THREADS) void long_rows_kernel(LongRowsView l, const T* __restrict__ x,
                                                                     T* __restrict__ y, T alpha, T beta) {
  __shared__ T warp_sums[LONG_ROW_THREADS / 32];
  const int lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
  if (std::int64_t(blockIdx.x) < l.huge) {
    const std::int64_t i = blockIdx.x;
    const T part = warp_sum(long_row_partial(l, i, int(threadIdx.x), LONG_ROW_THREADS, x));
    if (lane == 0) warp_sums[warp] = part;
    __syncthreads();
    if (warp != 0) return;
    const T v = warp_sum(lane < LONG_ROW_THREADS / 32 ? warp_sums[lane] : T(0));
    if (lane == 0) write_row(y, l.row[i], v, alpha, beta);
    return;
  }
  const std::int64_t i = l.huge + (std::int64_t(blockIdx.x) - l.huge) * (LONG_ROW_THREADS / 32) + warp;
  if (i >= l.count) return;  // whole warps leave together
  const T sum = warp_sum(long_row_partial(l, i, lane, 32, x));
  if (lane == 0) write_row(y, l.row[i], sum, alpha, beta);
}

template <class T>
void launch_long_rows(const LongRowsView& l, const SpmvCall& c) {
  if (l.count == 0) return;
  constexpr std::int64_t rows_per_block = LONG_ROW_THREADS / 32;
  const std::int64_t blocks = l.huge + (l.count - l.huge + rows_per_block - 1) / rows_per_block;
  detail::launch("spmv_long_rows_kernel", long_rows_kernel<T>, dim3(unsigned(blocks)), dim3(LONG_ROW_THREADS), 0,
                 c.stream, std::size_t(l.count), l, static_cast<const T*>(c.x), static_cast<T*>(c.y), T(c.alpha),
                 T(c.beta));
}

}  // namespace tessera::spmv_impl::gpu
