// What the spmv CUDA rungs share: typed dispatch, the row's final write,
// the read-only path for x, and device copies of the host formats
// (formats.hpp) held by a plan.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "families/spmv/contract.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/buffer.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::gpu {

inline constexpr int BLOCK_THREADS = 256;

// Calls f.template operator()<T>() for the spec's value type.
template <class F>
void dispatch_value(Dtype t, const char* who, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); break;
    case Dtype::f64: f.template operator()<double>(); break;
    default: throw Error(std::string(who) + ": spmv supports float and double values only");
  }
}

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

// The CSR view of a call's host arrays.
template <class T>
Csr<T> host_csr(const SpmvSpec& s, const CsrArrays& a) {
  return {s.rows, s.cols, s.nnz, a.row_offsets, a.col_indices, static_cast<const T*>(a.values)};
}

// A host vector copied into device memory the plan owns.
template <class V>
DeviceBytes upload(const std::vector<V>& v, const char* what) {
  DeviceBytes d(v.size() * sizeof(V), what);
  d.upload(v.data(), v.size() * sizeof(V));
  return d;
}

template <class V>
const V* as(const DeviceBytes& d) {
  return static_cast<const V*>(d.data());
}

// Blocks to cover n items with `per_block` each (at least 1).
inline unsigned blocks_for(std::int64_t n, std::int64_t per_block) {
  const std::int64_t b = (n + per_block - 1) / per_block;
  return unsigned(b > 0 ? b : 1);
}

// Formats with 32-bit row indices: rows below 2^31.
inline bool format_supports(const SpmvSpec& s) {
  return (s.dtype == Dtype::f32 || s.dtype == Dtype::f64) && s.rows < (std::int64_t(1) << 31);
}
inline bool csr_supports(const SpmvSpec& s) { return s.dtype == Dtype::f32 || s.dtype == Dtype::f64; }

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
