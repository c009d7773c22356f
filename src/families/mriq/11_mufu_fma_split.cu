// MRI-Q step 11, tessera's pick: the MUFU/FMA split. Of every 4 samples,
// policy::POLY_OF_4 take the FMA-pipe polynomial (quarter turns) and the rest
// MUFU (radians, no reduction: the fewest issue slots). MUFU is the
// bottleneck of step 9 with the issue port half idle; moving a quarter of
// the pairs to the FMA pipe balances the two: per warp and 4 pairs, 3 x 2
// MUFU ops = 48 MUFU clocks against 3 x 8 + 22 = 46 issue slots, so the
// predicted rate is 4/3 of the MUFU-only rung: ~130% of the MUFU sin/cos
// ceiling in special_ops terms (docs/mriq.md).
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"
#include "families/mriq/policy.hpp"

namespace tessera::mriq_impl {

void run_mufu_fma_split(const MriqCall& call) {
  run_aos<false, VOXELS_PER_THREAD, policy::POLY_OF_4, SincosMode::mufu>(
      call, "mriq aos_kernel<global, 4 voxels, mufu/fma split>");
}

}  // namespace tessera::mriq_impl
