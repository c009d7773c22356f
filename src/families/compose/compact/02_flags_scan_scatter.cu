// Compact / partition / unique step 2 — the seed's composition (seed 003
// "Data Parallel Algorithms – Compact" and "FindUniq"): flags, tessera's
// exclusive scan, scatter; three kernels, one element per thread, the flags
// and indices through device memory (flags_scan_scatter.cuh).
//
// Bytes (4-byte keys, uint32 flags): read x, write flags; the scan reads the
// flags and writes the indices (about twice); the scatter reads x, flags and
// indices and writes the output: ~5x the cost model's bytes (input +
// selected output). Bottleneck: that traffic. Expected (H100, 2^28 floats,
// 50% selected): ~20-25% of the copy bandwidth on the cost model.
#include "families/compose/flags_scan_scatter.cuh"
#include "families/compose/select_dispatch.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

void run_select_flags_scan_scatter(const Call& call) {
  const Spec& s = call.spec;
  if (s.n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_select(s, [&]<class T, gpu::SelectMode MODE, bool PARTITION>() {
    gpu::flags_scan_scatter<T, MODE, PARTITION>(static_cast<const T*>(call.in), call.flags, select_params<T>(s), s.n,
                                                static_cast<T*>(call.out), call.count, call.workspace, call.stream);
  });
}

std::size_t ws_select_flags_scan_scatter(const Spec& s) { return gpu::flags_scan_scatter_workspace(s.n); }

bool supports_select_flags_scan_scatter(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
