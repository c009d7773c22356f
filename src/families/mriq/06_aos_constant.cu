// MRI-Q step 6: k-space as an array of structures in constant memory (seed
// 000 "MRI", AoS): {kx, ky, kz, phiMag} of a sample in one float4, so a
// warp's sample is one 16-byte constant load (one cache line, not four) and
// the fission kernel packs the four arrays once. One voxel per thread, the
// precise sincosf. Bottleneck: still sincosf on the FMA pipe.
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

void run_aos_constant(const MriqCall& call) {
  run_aos<true, 1, 0, SincosMode::precise>(call, "mriq aos_kernel<constant, 1 voxel, precise>");
}

}  // namespace tessera::mriq_impl
