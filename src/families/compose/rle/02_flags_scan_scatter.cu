// rle step 2 — the seed's composition applied to runs (seed 003: unique's
// boundary flags, a scan for the compaction index, a map to copy; run
// lengths from where consecutive runs start). Four kernels, one element per
// thread:
//
//   select_flags_kernel   head[i] = i == 0 || x[i] != x[i-1]   (unique's flags)
//   tessera's exclusive scan of the head flags: run[i] = runs started before i
//   rle_scatter_kernel    at a head: keys[run[i]] = x[i], starts[run[i]] = i;
//                         element n-1 writes the number of runs
//   rle_lengths_kernel    lengths[r] = starts[r + 1] - starts[r]
//                         (starts[runs] = n), one thread per possible run
//
// Flags and indices are uint32 while n < 2^32 and int64 beyond; run starts
// are int64 (workspace). Bytes: read x twice and the flags, indices and
// starts once or twice each (~6x the cost model's bytes at 10% run heads).
// Expected (H100, 2^28 int32, 10% heads): ~15-20% of the copy bandwidth on
// the cost model.
#include <cuda_runtime.h>

#include <cstdint>

#include "families/compose/flags_scan_scatter.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

using gpu::fss_detail::BLOCK_THREADS;

template <class T, class I>
__global__ __launch_bounds__(BLOCK_THREADS) void rle_scatter_kernel(const T* __restrict__ in,
                                                                    const I* __restrict__ head,
                                                                    const I* __restrict__ run, std::size_t n,
                                                                    T* __restrict__ keys,
                                                                    std::int64_t* __restrict__ starts,
                                                                    std::int64_t* __restrict__ num_runs) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i >= n) return;
  const auto r = static_cast<std::size_t>(run[i]);
  if (head[i] != I(0)) {
    keys[r] = in[i];
    starts[r] = static_cast<std::int64_t>(i);
  }
  if (i == n - 1) *num_runs = static_cast<std::int64_t>(r) + static_cast<std::int64_t>(head[i]);
}

__global__ __launch_bounds__(BLOCK_THREADS) void rle_lengths_kernel(const std::int64_t* __restrict__ starts,
                                                                    const std::int64_t* __restrict__ num_runs,
                                                                    std::size_t n,
                                                                    std::int64_t* __restrict__ lengths) {
  const std::size_t r = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const auto runs = static_cast<std::size_t>(*num_runs);
  if (r >= runs) return;
  const std::int64_t next = r + 1 < runs ? starts[r + 1] : static_cast<std::int64_t>(n);
  lengths[r] = next - starts[r];
}

// Workspace: [ run starts: n int64 ][ flags / indices / scan ].
std::size_t flags_offset(std::size_t n) { return gpu::align_workspace(n * sizeof(std::int64_t)); }

}  // namespace

void run_rle_flags_scan_scatter(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  auto* starts = gpu::workspace_at<std::int64_t>(call.workspace, 0);
  void* rest = gpu::workspace_at<void>(call.workspace, flags_offset(n));
  const unsigned grid = gpu::checked_grid(detail::div_up(n, BLOCK_THREADS), "rle kernels", n);
  dispatch_key_type(call.spec.dtype, [&]<class T>() {
    gpu::fss_detail::with_index_type(n, [&]<class I>() {
      using namespace gpu::fss_detail;
      const Layout<I> l(n);
      auto* head = gpu::workspace_at<I>(rest, l.flags);
      auto* run = gpu::workspace_at<I>(rest, l.index);
      const T* in = static_cast<const T*>(call.in);
      detail::launch("select_flags_kernel", select_flags_kernel<T, gpu::SelectMode::unique, I>, dim3(grid),
                     dim3(BLOCK_THREADS), 0, call.stream, n, in, nullptr, gpu::SelectParams<T>{}, n, head);
      gpu::exclusive_sum(head, run, n, gpu::workspace_at<void>(rest, l.scan), l.scan_bytes, call.stream);
      detail::launch("rle_scatter_kernel", rle_scatter_kernel<T, I>, dim3(grid), dim3(BLOCK_THREADS), 0, call.stream,
                     n, in, head, run, n, static_cast<T*>(call.out), starts, call.count);
      detail::launch("rle_lengths_kernel", rle_lengths_kernel, dim3(grid), dim3(BLOCK_THREADS), 0, call.stream, n,
                     starts, call.count, n, call.lengths);
    });
  });
}

std::size_t ws_rle_flags_scan_scatter(const Spec& s) {
  return s.n == 0 ? 0 : flags_offset(s.n) + gpu::flags_scan_scatter_workspace(s.n);
}

bool supports_rle_flags_scan_scatter(const Spec& s) { return s.family == Family::rle && family_supports(s); }

}  // namespace tessera::compose_impl
