// find_unique step 2 — sort-based (seed 003 "FindUniq": how do we find unique
// elements sequentially? sort, then iterate and copy; in parallel: Sort ->
// Map (flag when the ith and (i-1)th element differ) -> Scan (compaction
// index) -> Map (copy to the new array)).
//
// The sort is CUB's: cub::DeviceRadixSort::SortKeys over the key's bits (8
// for bytes: a single digit pass), into the workspace; the rest is the
// seed's three kernels (flags_scan_scatter.cuh) with tessera's
// exclusive scan, on the sorted copy. The output is the distinct values in
// ascending order.
//
// Bottleneck: the sort (the seed's slide: sort 0.310 s of 0.349 s). Bytes:
// the sort reads and writes the keys once per 8-bit digit pass (plus its
// histogram pass), then ~5x n bytes of flags and indices for the compaction.
// Expected (H100, 2^30 text bytes): ~10-20% of the copy bandwidth on the cost
// model (input read once + the few distinct values).
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>

#include "families/compose/flags_scan_scatter.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

template <class T>
void radix_sort(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n, cudaStream_t stream) {
  TESSERA_CUDA(cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, static_cast<std::int64_t>(n), 0,
                                              static_cast<int>(8 * sizeof(T)), stream));
}

// Workspace: [ sorted keys: n T ][ sort temporary ][ flags / indices / scan ].
struct Layout {
  std::size_t sorted = 0, sort, sort_bytes, compact, total;
};

Layout layout_for(const Spec& s) {
  Layout l{};
  dispatch_distinct_type(s.dtype, [&]<class T>() {
    l.sort = gpu::align_workspace(s.n * sizeof(T));
    l.sort_bytes = 0;
    radix_sort<T>(nullptr, l.sort_bytes, nullptr, nullptr, s.n, nullptr);
  });
  l.compact = l.sort + gpu::align_workspace(l.sort_bytes);
  l.total = l.compact + gpu::flags_scan_scatter_workspace(s.n);
  return l;
}

}  // namespace

void run_find_unique_sort_based(const Call& call) {
  const Spec& s = call.spec;
  if (s.n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  const Layout l = layout_for(s);
  dispatch_distinct_type(s.dtype, [&]<class T>() {
    T* sorted = gpu::workspace_at<T>(call.workspace, l.sorted);
    std::size_t sort_bytes = l.sort_bytes;
    radix_sort<T>(gpu::workspace_at<void>(call.workspace, l.sort), sort_bytes, static_cast<const T*>(call.in), sorted,
                  s.n, call.stream);
    gpu::flags_scan_scatter<T, gpu::SelectMode::unique, false>(sorted, nullptr, {}, s.n, static_cast<T*>(call.out),
                                                                call.count,
                                                                gpu::workspace_at<void>(call.workspace, l.compact),
                                                                call.stream);
  });
}

std::size_t ws_find_unique_sort_based(const Spec& s) { return s.n == 0 ? 0 : layout_for(s).total; }

bool supports_find_unique_sort_based(const Spec& s) { return s.family == Family::find_unique && family_supports(s); }

}  // namespace tessera::compose_impl
