// The seed's composition (seed 003 "Data Parallel Algorithms – Compact"): Map
// (create flags: 1 keep, 0 remove) -> Scan (compute index) -> Map (copy to
// the new array). Three kernels, one element per thread, the flags and
// indices through device memory:
//
//   select_flags_kernel    flags[i] = keep(i): the predicate, the flag
//                          array's non-zero test, or, for unique, the
//                          boundary test i == 0 || x[i] != x[i-1] (seed 003
//                          FindUniq: "flag when ith and (i-1)th element
//                          differ");
//   the exclusive scan of the flags: index[i] = elements kept before i;
//   select_scatter_kernel  if flags[i]: out[index[i]] = x[i]; for a
//                          partition, a rejected element goes to
//                          out[n - 1 - (i - index[i])] (its reversed place
//                          from the end, as cub::DevicePartition); element
//                          n - 1 writes the count index[n-1] + flags[n-1].
//
// Flags and indices are uint32 while n < 2^32 and int64 beyond (the two types
// of tessera's exclusive sum). Used by the select rungs' step 2, by
// find_unique's sort_based rung (after the sort) and by rle's step 2.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/exclusive_sum.cuh"
#include "families/compose/select_tile.cuh"

namespace tessera::gpu {

namespace fss_detail {

constexpr int BLOCK_THREADS = 256;  // one element per thread, as the seed's maps

template <class T, SelectMode MODE, class I>
__global__ __launch_bounds__(BLOCK_THREADS) void select_flags_kernel(const T* __restrict__ in,
                                                                     const std::uint8_t* __restrict__ flags_in,
                                                                     SelectParams<T> p, std::size_t n,
                                                                     I* __restrict__ flags) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i >= n) return;
  bool keep;
  if constexpr (MODE == SelectMode::predicate) keep = compose_impl::passes(p.pred, in[i], p.threshold);
  else if constexpr (MODE == SelectMode::flagged) keep = flags_in[i] != 0;
  else keep = i == 0 || compose_impl::differs(in[i - 1], in[i]);
  flags[i] = keep ? I(1) : I(0);
}

template <class T, bool PARTITION, class I>
__global__ __launch_bounds__(BLOCK_THREADS) void select_scatter_kernel(const T* __restrict__ in,
                                                                       const I* __restrict__ flags,
                                                                       const I* __restrict__ index, std::size_t n,
                                                                       T* __restrict__ out,
                                                                       std::int64_t* __restrict__ count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i >= n) return;
  const auto at = static_cast<std::size_t>(index[i]);
  if (flags[i] != I(0)) out[at] = in[i];
  else if constexpr (PARTITION) out[n - 1 - (i - at)] = in[i];
  if (i == n - 1) *count = static_cast<std::int64_t>(at) + static_cast<std::int64_t>(flags[i]);
}

// Workspace: [ flags: n I ][ indices: n I ][ scan workspace ].
template <class I>
struct Layout {
  std::size_t flags = 0, index, scan, scan_bytes, total;
  explicit Layout(std::size_t n) {
    index = align_workspace(n * sizeof(I));
    scan = index + align_workspace(n * sizeof(I));
    scan_bytes = exclusive_sum_workspace<I>(n);
    total = scan + align_workspace(scan_bytes);
  }
};

// f.template operator()<I>() with the index type for n: every index and the
// count (<= n) must fit.
template <class F>
void with_index_type(std::size_t n, F&& f) {
  if (n <= static_cast<std::size_t>(UINT32_MAX)) f.template operator()<std::uint32_t>();
  else f.template operator()<std::int64_t>();
}

}  // namespace fss_detail

inline std::size_t flags_scan_scatter_workspace(std::size_t n) {
  std::size_t bytes = 0;
  if (n == 0) return 0;
  fss_detail::with_index_type(n, [&]<class I>() { bytes = fss_detail::Layout<I>(n).total; });
  return bytes;
}

// The three kernels on `stream`; n > 0. `flags_in`: MODE flagged only.
template <class T, SelectMode MODE, bool PARTITION>
void flags_scan_scatter(const T* in, const std::uint8_t* flags_in, SelectParams<T> p, std::size_t n, T* out,
                        std::int64_t* count, void* workspace, cudaStream_t stream) {
  using namespace fss_detail;
  const unsigned grid = checked_grid(detail::div_up(n, BLOCK_THREADS), "select_flags_kernel", n);
  with_index_type(n, [&]<class I>() {
    const Layout<I> l(n);
    auto* flags = workspace_at<I>(workspace, l.flags);
    auto* index = workspace_at<I>(workspace, l.index);
    detail::launch("select_flags_kernel", select_flags_kernel<T, MODE, I>, dim3(grid), dim3(BLOCK_THREADS), 0, stream,
                   n, in, flags_in, p, n, flags);
    exclusive_sum(flags, index, n, workspace_at<void>(workspace, l.scan), l.scan_bytes, stream);
    detail::launch("select_scatter_kernel", select_scatter_kernel<T, PARTITION, I>, dim3(grid), dim3(BLOCK_THREADS), 0,
                   stream, n, in, flags, index, n, out, count);
  });
}

}  // namespace tessera::gpu
