// GPU conversions that sort rows by length (convert.hpp): CSR -> JDS and
// CSR -> sliced ELL (SELL-C-sigma, and JDS with ELL sections), the same
// arrays as formats.hpp's to_jds / to_sliced, element for element
// (tests/test_spmv_gpu.cpp compares them).
//
// The host layout is: rows stably sorted by decreasing length within windows
// of sigma rows (one window for JDS), the rows past the long-row cut then
// taken out (kept rows keep their order) and listed apart, longest first,
// ties in row order. Here that order is one key per row, sorted stably:
//   kept row:  window << 32 | (2^32 - 1 - length)   (lengths <= cut < 2^32)
//   long row:  all ones (after every kept row, in row order)
// by a radix sort of (key, row) pairs (cub::DeviceRadixSort: stable, so
// equal keys keep row order, as std::stable_sort does); the long rows' own
// order is a second stable sort of their ids by decreasing length. Their
// offsets come from tessera::exclusive_scan of their lengths, each slice's
// start from an exclusive scan of its cells, then scatters like the ELL
// fill. The few per-length counts (the diagonals' lengths, how many rows
// are long or huge) come from the row-length histogram, on the host.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "families/spmv/common.cuh"
#include "families/spmv/convert.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/scan.hpp"

namespace tessera::spmv_impl::gpu {

namespace {

constexpr unsigned long long ALL_ONES = ~0ull;

unsigned grid(std::int64_t n) { return blocks_for(n, BLOCK_THREADS); }

__global__ void sort_keys_kernel(const std::int64_t* __restrict__ off, std::int64_t rows, std::int64_t window,
                                 std::int64_t cut, unsigned long long* __restrict__ keys,
                                 std::int32_t* __restrict__ ids) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  const std::int64_t len = off[r + 1] - off[r];
  // (the key holds lengths below 2^32: with formats::NO_CUT every row fits)
  const auto window_id = static_cast<unsigned long long>(r / window);
  keys[r] = len > cut ? ALL_ONES : (window_id << 32) | (0xFFFFFFFFull - static_cast<unsigned long long>(len));
  ids[r] = std::int32_t(r);
}

// Long rows by decreasing length: key = all ones - length.
__global__ void long_keys_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ ids,
                                 std::int64_t count, unsigned long long* __restrict__ keys) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < count) keys[i] = ALL_ONES - static_cast<unsigned long long>(off[ids[i] + 1] - off[ids[i]]);
}

// lengths[i] = length of row ids[i]; lengths[count] = 0 when `with_end` (an
// exclusive scan of count + 1 entries then ends at the total).
template <class L>
__global__ void lengths_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ ids,
                               std::int64_t count, bool with_end, L* __restrict__ lengths) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < count) lengths[i] = L(off[ids[i] + 1] - off[ids[i]]);
  if (with_end && i == count) lengths[i] = 0;
}

// A block per long row copies its entries (rows of 1e5 entries: coalesced).
template <class T>
__global__ void long_gather_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
                                   const T* __restrict__ val, const std::int32_t* __restrict__ ids,
                                   const std::int64_t* __restrict__ to, std::int32_t* __restrict__ out_col,
                                   T* __restrict__ out_val) {
  const std::int32_t r = ids[blockIdx.x];
  const std::int64_t begin = off[r], len = off[r + 1] - begin, at = to[blockIdx.x];
  for (std::int64_t k = threadIdx.x; k < len; k += blockDim.x) {
    out_col[at + k] = col[begin + k];
    out_val[at + k] = val[begin + k];
  }
}

// Entry k of sorted row i at diag[k] + i.
template <class T>
__global__ void jds_scatter_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
                                   const T* __restrict__ val, const std::int32_t* __restrict__ perm, std::int64_t n,
                                   const std::int64_t* __restrict__ diag, std::int32_t* __restrict__ out_col,
                                   T* __restrict__ out_val) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const std::int64_t begin = off[perm[i]], len = off[perm[i] + 1] - begin;
  for (std::int64_t k = 0; k < len; ++k) {
    out_col[diag[k] + i] = col[begin + k];
    out_val[diag[k] + i] = val[begin + k];
  }
}

// Each slice's width (its longest row) and cells (width * height); cells
// has slices + 1 entries, the last 0, for the exclusive scan.
__global__ void slice_width_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ perm,
                                   std::int64_t n, std::int64_t height, std::int64_t slices,
                                   std::int32_t* __restrict__ width, std::int64_t* __restrict__ cells) {
  const std::int64_t s = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (s == slices) cells[s] = 0;
  if (s >= slices) return;
  std::int64_t w = 0;
  for (std::int64_t i = s * height; i < n && i < (s + 1) * height; ++i) {
    const std::int64_t len = off[perm[i] + 1] - off[perm[i]];
    w = len > w ? len : w;
  }
  width[s] = std::int32_t(w);
  cells[s] = w * height;
}

// Entry k of sorted row i (slice i / height, lane i % height) at
// slice_offsets[slice] + k * height + lane; the rest stays padding.
template <class T>
__global__ void sliced_scatter_kernel(const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
                                      const T* __restrict__ val, const std::int32_t* __restrict__ perm,
                                      std::int64_t n, std::int64_t height,
                                      const std::int64_t* __restrict__ slice_offsets,
                                      std::int32_t* __restrict__ out_col, T* __restrict__ out_val) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const std::int64_t begin = off[perm[i]], len = off[perm[i] + 1] - begin;
  const std::int64_t base = slice_offsets[i / height] + i % height;
  for (std::int64_t k = 0; k < len; ++k) {
    out_col[base + k * height] = col[begin + k];
    out_val[base + k * height] = val[begin + k];
  }
}

template <class V>
V read_back(const V* device, cudaStream_t stream) {
  V host{};
  TESSERA_CUDA(cudaMemcpyAsync(&host, device, sizeof(V), cudaMemcpyDeviceToHost, stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  return host;
}

// A stable sort of (key, id) pairs of n items into keys_out / ids_out.
void sort_pairs(const unsigned long long* keys_in, unsigned long long* keys_out, const std::int32_t* ids_in,
                std::int32_t* ids_out, std::int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  std::size_t temp_bytes = 0;
  TESSERA_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_in, keys_out, ids_in, ids_out, int(n), 0,
                                               64, stream));
  DeviceBytes temp(std::max<std::size_t>(temp_bytes, 16), "spmv row sort scratch");
  TESSERA_CUDA(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, keys_in, keys_out, ids_in, ids_out, int(n),
                                               0, 64, stream));
}

// Rows past `cut` and past HUGE_ROW, from the histogram.
std::int64_t rows_longer_than(const formats::RowStats& h, std::int64_t length) {
  std::int64_t n = 0;
  if (length >= std::int64_t(h.histogram.size())) return 0;  // formats::NO_CUT included
  for (std::size_t len = std::size_t(length) + 1; len < h.histogram.size(); ++len) n += h.histogram[len];
  return n;
}

// The sorted kept rows (perm) and the long rows' part.
struct SortedRows {
  DeviceBytes perm;  // kept rows in format order
  std::int64_t kept = 0;
  LongRowsPart long_rows;
};

template <class T>
SortedRows sort_rows(const SpmvSpec& s, const CsrArrays& d, const formats::RowStats& h, std::int64_t window,
                     std::int64_t cut, cudaStream_t stream) {
  SortedRows out;
  require(cut >= 0, "spmv: the long-row cut is negative: " + std::to_string(cut));
  const std::int64_t rows = s.rows, long_count = rows_longer_than(h, cut);
  out.kept = rows - long_count;
  DeviceBytes keys(std::size_t(rows) * 8, "spmv row sort keys"), keys_sorted(std::size_t(rows) * 8, "spmv sorted keys");
  DeviceBytes ids(std::size_t(rows) * 4, "spmv row ids"), sorted(std::size_t(rows) * 4, "spmv sorted rows");
  auto* k = static_cast<unsigned long long*>(keys.data());
  auto* ks = static_cast<unsigned long long*>(keys_sorted.data());
  auto* id = static_cast<std::int32_t*>(ids.data());
  auto* sr = static_cast<std::int32_t*>(sorted.data());
  if (rows > 0) {
    detail::launch("spmv_sort_keys_kernel", sort_keys_kernel, dim3(grid(rows)), dim3(BLOCK_THREADS), 0, stream,
                   std::size_t(rows), d.row_offsets, rows, std::max<std::int64_t>(window, 1), cut, k, id);
    sort_pairs(k, ks, id, sr, rows, stream);
  }
  out.perm = DeviceBytes(std::size_t(out.kept) * 4, "sorted permutation");
  if (out.kept > 0)
    TESSERA_CUDA(cudaMemcpyAsync(out.perm.data(), sr, std::size_t(out.kept) * 4, cudaMemcpyDeviceToDevice, stream));

  // The long rows: longest first, ties in row order (a second stable sort of
  // the ids that came last, in row order), then their own CSR.
  DeviceBytes row(std::size_t(long_count) * 4, "long rows");
  DeviceBytes offsets(std::size_t(long_count + 1) * 8, "long row offsets");
  auto* lr = static_cast<std::int32_t*>(row.data());
  auto* lo = static_cast<std::int64_t*>(offsets.data());
  std::int64_t long_nnz = 0;
  if (long_count > 0) {
    detail::launch("spmv_long_keys_kernel", long_keys_kernel, dim3(grid(long_count)), dim3(BLOCK_THREADS), 0, stream,
                   std::size_t(long_count), d.row_offsets, sr + out.kept, long_count, k);
    sort_pairs(k, ks, sr + out.kept, lr, long_count, stream);
    DeviceBytes lengths(std::size_t(long_count + 1) * 8, "long row lengths");
    auto* ll = static_cast<std::int64_t*>(lengths.data());
    detail::launch("spmv_lengths_kernel", lengths_kernel<std::int64_t>, dim3(grid(long_count + 1)),
                   dim3(BLOCK_THREADS), 0, stream, std::size_t(long_count + 1), d.row_offsets, lr, long_count, true,
                   ll);
    tessera::exclusive_scan(static_cast<const std::int64_t*>(ll), std::size_t(long_count + 1), lo, {.stream = stream});
    long_nnz = read_back(lo + long_count, stream);
  } else {
    offsets = DeviceBytes(8, "long row offsets");
    offsets.fill_bytes(0, stream);
  }
  DeviceBytes lcol(std::size_t(long_nnz) * 4, "long row columns");
  DeviceBytes lval(std::size_t(long_nnz) * sizeof(T), "long row values");
  if (long_count > 0)
    detail::launch("spmv_long_gather_kernel", long_gather_kernel<T>, dim3(unsigned(long_count)), dim3(BLOCK_THREADS),
                   0, stream, std::size_t(long_count) * BLOCK_THREADS, d.row_offsets, d.col_indices,
                   static_cast<const T*>(d.values), lr, static_cast<const std::int64_t*>(offsets.data()),
                   static_cast<std::int32_t*>(lcol.data()), static_cast<T*>(lval.data()));
  const std::int64_t huge = rows_longer_than(h, std::max(cut, formats::HUGE_ROW));
  out.long_rows = LongRowsPart(std::move(row), std::move(offsets), std::move(lcol), std::move(lval), long_count, huge);
  out.long_rows.footprint = long_count == 0 ? 0
                                            : std::size_t(long_count) * 4 + std::size_t(long_count + 1) * 8 +
                                                  std::size_t(long_nnz) * (4 + sizeof(T));
  TESSERA_CUDA(cudaStreamSynchronize(stream));  // the scratch above is freed on return
  return out;
}

}  // namespace

template <class T>
std::unique_ptr<JdsPlan> device_jds(const SpmvSpec& s, const CsrArrays& d, std::int64_t cut, stream_t stream_) {
  const auto stream = static_cast<cudaStream_t>(stream_);
  const formats::RowStats h = device_row_stats(s, d, stream_);
  SortedRows sorted = sort_rows<T>(s, d, h, std::max<std::int64_t>(s.rows, 1), cut, stream);
  const std::int64_t n = sorted.kept;
  // Diagonal k holds the kept rows longer than k: the histogram's bins (k, cut].
  std::int64_t max_len = 0;
  for (std::int64_t len = 0; len < std::int64_t(h.histogram.size()) && len <= cut; ++len)
    if (h.histogram[std::size_t(len)] > 0) max_len = len;
  if (n == 0) max_len = 0;
  std::vector<std::int64_t> diag(std::size_t(max_len) + 1, 0);
  std::int64_t longer = n;  // kept rows longer than k, starting at k = 0
  for (std::int64_t k = 0; k < max_len; ++k) {
    longer -= h.histogram[std::size_t(k)];
    diag[std::size_t(k) + 1] = diag[std::size_t(k)] + longer;
  }
  const std::int64_t cells = diag.back();
  DeviceBytes length(std::size_t(n) * 4, "jds row lengths"), diag_d = upload(diag, "jds diagonal offsets");
  DeviceBytes col(std::size_t(cells) * 4, "jds columns"), val(std::size_t(cells) * sizeof(T), "jds values");
  const auto* perm = as<std::int32_t>(sorted.perm);
  if (n > 0) {
    detail::launch("spmv_lengths_kernel", lengths_kernel<std::int32_t>, dim3(grid(n)), dim3(BLOCK_THREADS), 0, stream,
                   std::size_t(n), d.row_offsets, perm, n, false, static_cast<std::int32_t*>(length.data()));
    detail::launch("spmv_jds_scatter_kernel", jds_scatter_kernel<T>, dim3(grid(n)), dim3(BLOCK_THREADS), 0, stream,
                   std::size_t(n), d.row_offsets, d.col_indices, static_cast<const T*>(d.values), perm, n,
                   as<std::int64_t>(diag_d), static_cast<std::int32_t*>(col.data()), static_cast<T*>(val.data()));
  }
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  const std::size_t long_bytes = sorted.long_rows.footprint;
  auto plan = std::make_unique<JdsPlan>(std::move(sorted.perm), std::move(length), std::move(diag_d), std::move(col),
                                        std::move(val), std::move(sorted.long_rows), n, max_len);
  plan->footprint_bytes = std::size_t(n) * 8 + diag.size() * 8 + std::size_t(cells) * (4 + sizeof(T)) + long_bytes;
  return plan;
}

template <class T>
std::unique_ptr<SlicedPlan> device_sliced(const SpmvSpec& s, const CsrArrays& d, std::int64_t height,
                                          std::int64_t window, std::int64_t cut, stream_t stream_) {
  const auto stream = static_cast<cudaStream_t>(stream_);
  const formats::RowStats h = device_row_stats(s, d, stream_);
  SortedRows sorted = sort_rows<T>(s, d, h, window, cut, stream);
  const std::int64_t n = sorted.kept, slices = (n + height - 1) / height;
  const auto* perm = as<std::int32_t>(sorted.perm);
  DeviceBytes width(std::size_t(slices) * 4, "slice widths"), offsets(std::size_t(slices + 1) * 8, "slice offsets");
  DeviceBytes cells_d(std::size_t(slices + 1) * 8, "slice cells");
  auto* so = static_cast<std::int64_t*>(offsets.data());
  detail::launch("spmv_slice_width_kernel", slice_width_kernel, dim3(grid(slices + 1)), dim3(BLOCK_THREADS), 0,
                 stream, std::size_t(slices + 1), d.row_offsets, perm, n, height, slices,
                 static_cast<std::int32_t*>(width.data()), static_cast<std::int64_t*>(cells_d.data()));
  tessera::exclusive_scan(static_cast<const std::int64_t*>(cells_d.data()), std::size_t(slices + 1), so,
                          {.stream = stream});
  const std::int64_t cells = read_back(so + slices, stream);
  DeviceBytes col(std::size_t(cells) * 4, "sliced columns"), val(std::size_t(cells) * sizeof(T), "sliced values");
  if (cells > 0) {
    col.fill_bytes(0xFF, stream);  // PAD_COLUMN = -1
    val.fill_bytes(0, stream);
    detail::launch("spmv_sliced_scatter_kernel", sliced_scatter_kernel<T>, dim3(grid(n)), dim3(BLOCK_THREADS), 0,
                   stream, std::size_t(n), d.row_offsets, d.col_indices, static_cast<const T*>(d.values), perm, n,
                   height, static_cast<const std::int64_t*>(so), static_cast<std::int32_t*>(col.data()),
                   static_cast<T*>(val.data()));
  }
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  const std::size_t long_bytes = sorted.long_rows.footprint;
  auto plan = std::make_unique<SlicedPlan>(std::move(sorted.perm), std::move(offsets), std::move(width),
                                           std::move(col), std::move(val), std::move(sorted.long_rows), n, height,
                                           slices);
  plan->footprint_bytes = std::size_t(n) * 4 + std::size_t(slices + 1) * 8 + std::size_t(slices) * 4 +
                          std::size_t(cells) * (4 + sizeof(T)) + long_bytes;
  return plan;
}

#define TESSERA_INSTANTIATE(T)                                                                                   \
  template std::unique_ptr<JdsPlan> device_jds<T>(const SpmvSpec&, const CsrArrays&, std::int64_t, stream_t);   \
  template std::unique_ptr<SlicedPlan> device_sliced<T>(const SpmvSpec&, const CsrArrays&, std::int64_t,         \
                                                        std::int64_t, std::int64_t, stream_t);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::spmv_impl::gpu
