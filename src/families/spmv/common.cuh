// What the spmv CUDA rungs share: the row's final write, the read-only path
// for x, launch sizes, the rows-scaling pass (plans.hpp: typed dispatch and
// the formats' device copies).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "families/spmv/plans.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::gpu {

// y_r = alpha * sum + beta * y_r; with beta == 0, y is not read (it may hold
// NaN, and the bytes model then counts no read of y).
template <class T>
__device__ __forceinline__ void write_row(T* y, std::int64_t r, T sum, T alpha, T beta) {
  y[r] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[r];
}

// x through the read-only (texture) path: its reads are scattered and reused
// across rows, the case the non-coherent cache is for.
template <class T>
__device__ __forceinline__ T load_x(const T* x, std::int32_t c) {
  return __ldg(x + c);
}

// Blocks to cover n items with `per_block` each (at least 1).
inline unsigned blocks_for(std::int64_t n, std::int64_t per_block) {
  const std::int64_t b = (n + per_block - 1) / per_block;
  return unsigned(b > 0 ? b : 1);
}

// y = beta * y for the listed rows (COO's empty rows), or for every row when
// `rows_list` is null (coo_atomic's first pass).
template <class T>
__global__ void scale_rows_kernel(const std::int32_t* __restrict__ rows_list, std::int64_t count, T* __restrict__ y,
                                  T beta) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::int64_t r = rows_list ? rows_list[i] : i;
  y[r] = beta == T(0) ? T(0) : beta * y[r];
}

template <class T>
void scale_rows(const std::int32_t* rows_list, std::int64_t count, T* y, T beta, cudaStream_t stream) {
  if (count == 0) return;
  detail::launch("spmv_scale_rows_kernel", scale_rows_kernel<T>, dim3(blocks_for(count, BLOCK_THREADS)),
                 dim3(BLOCK_THREADS), 0, stream, std::size_t(count), rows_list, count, y, beta);
}

}  // namespace tessera::spmv_impl::gpu
