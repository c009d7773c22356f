// MRI-Q step 7: thread coarsening (seed 000 "MRI", Thread Coarsening, way
// 2): 4 voxels per thread, BLOCK threads apart (coalesced loads and stores),
// so each constant load of a sample serves 4 voxels and the 4 independent
// chains give the scheduler instruction-level parallelism. Precise
// sincosf. Bottleneck: sincosf on the FMA pipe (the load per sample is now
// a quarter of an instruction per pair).
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

void run_coarsened(const MriqCall& call) {
  run_aos<true, VOXELS_PER_THREAD, 0, SincosMode::precise>(call, "mriq aos_kernel<constant, 4 voxels, precise>");
}

}  // namespace tessera::mriq_impl
