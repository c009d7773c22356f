// find_unique step 5 — the vendor baseline: cub::DeviceRadixSort::SortKeys
// into the workspace, then cub::DeviceSelect::Unique of the sorted keys (the
// count to the device). Both temporaries share one region of the workspace
// (the calls run one after the other on the stream).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "tessera/blocks/multipass.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

// Workspace: [ sorted keys: n T ][ temporary storage of the larger call ].
template <class T>
struct Plan {
  std::size_t temp_offset = 0, sort_bytes = 0, unique_bytes = 0, total = 0;
  explicit Plan(std::size_t n) {
    const auto m = static_cast<std::int64_t>(n);
    TESSERA_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, static_cast<const T*>(nullptr),
                                                static_cast<T*>(nullptr), m, 0, static_cast<int>(8 * sizeof(T)),
                                                cudaStream_t{}));
    TESSERA_CUDA(cub::DeviceSelect::Unique(nullptr, unique_bytes, static_cast<const T*>(nullptr),
                                           static_cast<T*>(nullptr), static_cast<std::int64_t*>(nullptr), m,
                                           cudaStream_t{}));
    temp_offset = gpu::align_workspace(n * sizeof(T));
    total = temp_offset + gpu::align_workspace(std::max(sort_bytes, unique_bytes));
  }
};

}  // namespace

void run_cub_sort_unique(const Call& c) {
  const std::size_t n = c.spec.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(c.count, 0, sizeof(std::int64_t), c.stream));
    return;
  }
  dispatch_distinct_type(c.spec.dtype, [&]<class T>() {
    Plan<T> p(n);
    T* sorted = gpu::workspace_at<T>(c.workspace, 0);
    void* temp = gpu::workspace_at<void>(c.workspace, p.temp_offset);
    const auto m = static_cast<std::int64_t>(n);
    TESSERA_CUDA(cub::DeviceRadixSort::SortKeys(temp, p.sort_bytes, static_cast<const T*>(c.in), sorted, m, 0,
                                                static_cast<int>(8 * sizeof(T)), c.stream));
    TESSERA_CUDA(cub::DeviceSelect::Unique(temp, p.unique_bytes, static_cast<const T*>(sorted), static_cast<T*>(c.out),
                                           c.count, m, c.stream));
  });
}

std::size_t ws_cub_sort_unique(const Spec& s) {
  std::size_t bytes = 0;
  if (s.n == 0) return 0;
  dispatch_distinct_type(s.dtype, [&]<class T>() { bytes = Plan<T>(s.n).total; });
  return bytes;
}

bool supports_cub_sort_unique(const Spec& s) { return s.family == Family::find_unique && family_supports(s); }

}  // namespace tessera::compose_impl
