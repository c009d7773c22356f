// Host side of the one-tile look-back scan inside the library: its policy and
// the checked launch (workspace clear + one kernel), shared by step 9's
// `lookback` row (09_lookback.cu), the internal exclusive sum
// (exclusive_sum.cu) and the lab's tuned policies of the same kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "families/scan/contract.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/scan_ops.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::scan_impl {

// The policy of `lookback` and of the exclusive sum, the same as
// tessera::scan_with's (lookback_tile.cuh says why this shape).
using LookbackPrimary = gpu::LookbackDefaultPolicy;

// LookbackScan<P, ScanOf<R>>::workspace_bytes(n) for the spec's reducer R:
// the tile counter and one status slot per tile.
template <class P>
std::size_t lookback_workspace(const ScanSpec& spec) {
  std::size_t bytes = 0;
  dispatch_scan(spec.dtype, spec.op, spec.accum,
                [&]<class R>() { bytes = gpu::LookbackScan<P, ScanOf<R>>::workspace_bytes(spec.n); });
  return bytes;
}

// Enqueues the scan of n elements on `stream`: zero the counter and status
// slots, one kernel. `workspace` holds LookbackScan<P, F>::workspace_bytes(n)
// bytes. n == 0 does nothing.
template <class P, class F>
void run_lookback(const char* kernel_name, const F& f, const typename F::in_t* in, typename F::out_t* out,
                  std::size_t n, bool exclusive, typename F::out_t* total, void* workspace, cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  const unsigned grid = gpu::checked_grid(layout.tiles, kernel_name, n);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, L::clear_bytes(layout), stream));
  detail::launch(kernel_name, gpu::scan_lookback_kernel<P, F>, dim3(grid), dim3(P::THREADS), 0, stream, n, in, out,
                 layout, workspace, total, f);
}

}  // namespace tessera::scan_impl
