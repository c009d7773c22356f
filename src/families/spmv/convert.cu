// Format conversions on the GPU (convert.hpp): COO, ELL and HYB from device
// CSR arrays, without a round trip through the host. Each is a few passes
// over the CSR: row lengths (max and histogram, atomics), a nonzero-to-row
// map by binary search (balanced whatever the row lengths), scans of
// per-row counts (tessera::exclusive_scan) to place the empty-row list and
// HYB's COO tails, and scatters. Run once per plan, outside timing.
#include <cuda_runtime.h>

#include <vector>

#include "families/spmv/common.cuh"
#include "families/spmv/convert.hpp"
#include "families/spmv/nnz_split.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/scan.hpp"

namespace tessera::spmv_impl::gpu {

namespace {

constexpr int SHARED_BINS = 2048;  // histograms this small are privatised per block

__global__ void row_length_max_kernel(const std::int64_t* __restrict__ off, std::int64_t rows,
                                      unsigned long long* max_length) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  unsigned long long len = r < rows ? static_cast<unsigned long long>(off[r + 1] - off[r]) : 0ull;
  for (int d = 16; d > 0; d /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, len, d);
    len = other > len ? other : len;
  }
  if (threadIdx.x % 32 == 0) atomicMax(max_length, len);
}

__global__ void row_length_histogram_kernel(const std::int64_t* __restrict__ off, std::int64_t rows,
                                            std::int64_t bins, unsigned long long* __restrict__ counts) {
  __shared__ unsigned long long local[SHARED_BINS];
  const bool shared = bins <= SHARED_BINS;
  if (shared)
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r < rows) {
    const std::int64_t len = off[r + 1] - off[r];
    atomicAdd(shared ? &local[len] : &counts[len], 1ull);
  }
  __syncthreads();
  if (shared)
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
      if (local[b] != 0) atomicAdd(&counts[b], local[b]);
}

// The row of every nonzero: the first row that ends after it.
__global__ void coo_rows_kernel(const std::int64_t* __restrict__ off, std::int64_t rows, std::int64_t nnz,
                                std::int32_t* __restrict__ row_of) {
  const std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (k < nnz) row_of[k] = std::int32_t(nnz_split::rows_ending_after(off, rows, k));
}

__global__ void empty_flags_kernel(const std::int64_t* __restrict__ off, std::int64_t rows,
                                   std::int32_t* __restrict__ flags) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r < rows) flags[r] = off[r + 1] == off[r] ? 1 : 0;
}

__global__ void empty_scatter_kernel(const std::int32_t* __restrict__ flags, const std::int32_t* __restrict__ at,
                                     std::int64_t rows, std::int32_t* __restrict__ empty) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r < rows && flags[r]) empty[at[r]] = std::int32_t(r);
}

// Entry k < width of row r at k * rows + r; padding past the row's end.
template <class T>
__global__ void ell_fill_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
                                const T* __restrict__ val, std::int64_t rows, std::int64_t width,
                                std::int32_t* __restrict__ ell_col, T* __restrict__ ell_val) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  const std::int64_t begin = off[r], len = off[r + 1] - begin;
  for (std::int64_t k = 0; k < width; ++k) {
    const std::int64_t at = k * rows + r;
    ell_col[at] = k < len ? col[begin + k] : formats::PAD_COLUMN;
    ell_val[at] = k < len ? val[begin + k] : T(0);
  }
}

__global__ void tail_lengths_kernel(const std::int64_t* __restrict__ off, std::int64_t rows, std::int64_t width,
                                    std::int64_t* __restrict__ tail) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r < rows) {
    const std::int64_t len = off[r + 1] - off[r];
    tail[r] = len > width ? len - width : 0;
  }
}

template <class T>
__global__ void tail_fill_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
                                 const T* __restrict__ val, std::int64_t rows, std::int64_t width,
                                 const std::int64_t* __restrict__ tail_at, std::int32_t* __restrict__ coo_row,
                                 std::int32_t* __restrict__ coo_col, T* __restrict__ coo_val) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  const std::int64_t from = off[r] + width, to = off[r + 1];
  for (std::int64_t k = from, at = tail_at[r]; k < to; ++k, ++at) {
    coo_row[at] = std::int32_t(r);
    coo_col[at] = col[k];
    coo_val[at] = val[k];
  }
}

template <class V>
V read_back(const V* device, cudaStream_t stream) {
  V host{};
  TESSERA_CUDA(cudaMemcpyAsync(&host, device, sizeof(V), cudaMemcpyDeviceToHost, stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  return host;
}

unsigned grid(std::int64_t n) { return blocks_for(n, BLOCK_THREADS); }

// How many rows are empty, and their list (ascending), on the device.
DeviceBytes empty_rows(const std::int64_t* off, std::int64_t rows, cudaStream_t stream, std::int64_t& count) {
  count = 0;
  if (rows == 0) return {};
  DeviceBytes flags(std::size_t(rows) * 4, "spmv empty-row flags"), at(std::size_t(rows) * 4, "spmv empty-row slots");
  auto* f = static_cast<std::int32_t*>(flags.data());
  auto* a = static_cast<std::int32_t*>(at.data());
  detail::launch("spmv_empty_flags_kernel", empty_flags_kernel, dim3(grid(rows)), dim3(BLOCK_THREADS), 0, stream,
                 std::size_t(rows), off, rows, f);
  tessera::exclusive_scan(static_cast<const std::int32_t*>(f), std::size_t(rows), a, {.stream = stream});
  count = std::int64_t(read_back(a + rows - 1, stream)) + read_back(f + rows - 1, stream);
  DeviceBytes list(std::size_t(count) * 4, "coo empty rows");
  if (count > 0)
    detail::launch("spmv_empty_scatter_kernel", empty_scatter_kernel, dim3(grid(rows)), dim3(BLOCK_THREADS), 0,
                   stream, std::size_t(rows), f, a, rows, static_cast<std::int32_t*>(list.data()));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  return list;
}

template <class T>
EllPlan ell_plan(const SpmvSpec& s, const CsrArrays& d, std::int64_t width, cudaStream_t stream) {
  const std::size_t cells = std::size_t(s.rows) * std::size_t(width);
  DeviceBytes col(cells * 4, "ell columns"), val(cells * sizeof(T), "ell values");
  if (cells > 0)
    detail::launch("spmv_ell_fill_kernel", ell_fill_kernel<T>, dim3(grid(s.rows)), dim3(BLOCK_THREADS), 0, stream,
                   std::size_t(s.rows), d.row_offsets, d.col_indices, static_cast<const T*>(d.values), s.rows, width,
                   static_cast<std::int32_t*>(col.data()), static_cast<T*>(val.data()));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  EllPlan plan(std::move(col), std::move(val), s.rows, width);
  plan.footprint_bytes = cells * (4 + sizeof(T));
  return plan;
}

}  // namespace

formats::RowStats device_row_stats(const SpmvSpec& s, const CsrArrays& d, stream_t stream) {
  formats::RowStats stats;
  if (s.rows == 0) {
    stats.histogram.assign(1, 0);
    return stats;
  }
  DeviceBytes max_slot(8, "spmv longest row");
  max_slot.fill_bytes(0, stream);
  auto* max_length = static_cast<unsigned long long*>(max_slot.data());
  detail::launch("spmv_row_length_max_kernel", row_length_max_kernel, dim3(grid(s.rows)), dim3(BLOCK_THREADS), 0,
                 stream, std::size_t(s.rows), d.row_offsets, s.rows, max_length);
  stats.max_length = std::int64_t(read_back(max_length, stream));
  const std::int64_t bins = stats.max_length + 1;
  DeviceBytes counts(std::size_t(bins) * 8, "spmv row-length histogram");
  counts.fill_bytes(0, stream);
  detail::launch("spmv_row_length_histogram_kernel", row_length_histogram_kernel, dim3(grid(s.rows)),
                 dim3(BLOCK_THREADS), 0, stream, std::size_t(s.rows), d.row_offsets, s.rows, bins,
                 static_cast<unsigned long long*>(counts.data()));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  std::vector<unsigned long long> host(static_cast<std::size_t>(bins));
  counts.download(host.data(), host.size() * 8);
  stats.histogram.assign(host.begin(), host.end());
  return stats;
}

template <class T>
std::unique_ptr<CooPlan> device_coo(const SpmvSpec& s, const CsrArrays& d, stream_t stream) {
  const std::size_t nnz = std::size_t(s.nnz);
  DeviceBytes row(nnz * 4, "coo rows"), col(nnz * 4, "coo columns"), val(nnz * sizeof(T), "coo values");
  if (nnz > 0) {
    detail::launch("spmv_coo_rows_kernel", coo_rows_kernel, dim3(grid(s.nnz)), dim3(BLOCK_THREADS), 0, stream, nnz,
                   d.row_offsets, s.rows, s.nnz, static_cast<std::int32_t*>(row.data()));
    TESSERA_CUDA(cudaMemcpyAsync(col.data(), d.col_indices, nnz * 4, cudaMemcpyDeviceToDevice, stream));
    TESSERA_CUDA(cudaMemcpyAsync(val.data(), d.values, nnz * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }
  std::int64_t empty_count = 0;
  DeviceBytes empty = empty_rows(d.row_offsets, s.rows, stream, empty_count);
  auto plan = std::make_unique<CooPlan>(std::move(row), std::move(col), std::move(val), std::move(empty), s.nnz,
                                        empty_count);
  plan->footprint_bytes = nnz * (8 + sizeof(T)) + std::size_t(empty_count) * 4;
  return plan;
}

template <class T>
std::unique_ptr<EllPlan> device_ell(const SpmvSpec& s, const CsrArrays& d, std::int64_t width, stream_t stream) {
  return std::make_unique<EllPlan>(ell_plan<T>(s, d, width, stream));
}

template <class T>
std::unique_ptr<HybPlan> device_hyb(const SpmvSpec& s, const CsrArrays& d, std::int64_t width, stream_t stream) {
  EllPlan ell = ell_plan<T>(s, d, width, stream);
  std::int64_t tails = 0;
  DeviceBytes tail_at;
  if (s.rows > 0) {
    DeviceBytes tail_len(std::size_t(s.rows) * 8, "hyb tail lengths");
    tail_at = DeviceBytes(std::size_t(s.rows) * 8, "hyb tail offsets");
    auto* len = static_cast<std::int64_t*>(tail_len.data());
    auto* at = static_cast<std::int64_t*>(tail_at.data());
    detail::launch("spmv_tail_lengths_kernel", tail_lengths_kernel, dim3(grid(s.rows)), dim3(BLOCK_THREADS), 0,
                   stream, std::size_t(s.rows), d.row_offsets, s.rows, width, len);
    tessera::exclusive_scan(static_cast<const std::int64_t*>(len), std::size_t(s.rows), at, {.stream = stream});
    tails = read_back(at + s.rows - 1, stream) + read_back(len + s.rows - 1, stream);
  }
  DeviceBytes row(std::size_t(tails) * 4, "hyb coo rows"), col(std::size_t(tails) * 4, "hyb coo columns"),
      val(std::size_t(tails) * sizeof(T), "hyb coo values");
  if (tails > 0)
    detail::launch("spmv_tail_fill_kernel", tail_fill_kernel<T>, dim3(grid(s.rows)), dim3(BLOCK_THREADS), 0, stream,
                   std::size_t(s.rows), d.row_offsets, d.col_indices, static_cast<const T*>(d.values), s.rows, width,
                   static_cast<const std::int64_t*>(tail_at.data()), static_cast<std::int32_t*>(row.data()),
                   static_cast<std::int32_t*>(col.data()), static_cast<T*>(val.data()));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  CooPlan coo(std::move(row), std::move(col), std::move(val), DeviceBytes{}, tails, 0);
  coo.footprint_bytes = std::size_t(tails) * (8 + sizeof(T));
  const std::size_t bytes = ell.footprint_bytes + coo.footprint_bytes;
  auto plan = std::make_unique<HybPlan>(std::move(ell), std::move(coo));
  plan->footprint_bytes = bytes;
  return plan;
}

#define TESSERA_INSTANTIATE(T)                                                                                \
  template std::unique_ptr<CooPlan> device_coo<T>(const SpmvSpec&, const CsrArrays&, stream_t);              \
  template std::unique_ptr<EllPlan> device_ell<T>(const SpmvSpec&, const CsrArrays&, std::int64_t, stream_t); \
  template std::unique_ptr<HybPlan> device_hyb<T>(const SpmvSpec&, const CsrArrays&, std::int64_t, stream_t);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::spmv_impl::gpu
