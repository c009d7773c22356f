// MRI-Q step 9: step 8 with the packed samples read from the workspace in
// global memory instead of constant memory: warp-uniform 16-byte __ldg
// loads, broadcast from L1 (the whole k-space of the bench problem, 4 MiB,
// sits in L2). One launch instead of a copy and a launch per 2048-sample
// chunk, and no process-wide constant bank, so concurrent calls on
// different streams are safe. Expected: the same MUFU-bound speed as step
// 8, or slightly better (no per-chunk launch gaps).
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

void run_global_aos(const MriqCall& call) {
  run_aos<false, VOXELS_PER_THREAD, 0, SincosMode::mufu>(call, "mriq aos_kernel<global, 4 voxels, mufu>");
}

}  // namespace tessera::mriq_impl
