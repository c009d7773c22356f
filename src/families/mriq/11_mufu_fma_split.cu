// MRI-Q step 11, tessera's pick: the MUFU/FMA split. Of every 4 samples,
// policy::POLY_OF_4 take the FMA-pipe polynomials (turns, sincos_turns_poly)
// and the rest MUFU (radians, no reduction: the fewest issue slots). MUFU
// is the bottleneck of step 9 with the issue port half idle; moving a
// quarter of the pairs to the FMA pipe lets both work. Per warp and 4 pairs
// (counted from the PTX): all-MUFU is 8 MUFU ops = 64 MUFU clocks against
// ~36 issue slots; the split is 6 MUFU ops = 48 MUFU clocks against
// 3 x 9 + ~21 = 48 issue slots: balanced, predicted 64/48 = 1.33x the
// MUFU-only rung, past 100% of the MUFU sin/cos ceiling (docs/mriq.md).
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"
#include "families/mriq/policy.hpp"

namespace tessera::mriq_impl {

void run_mufu_fma_split(const MriqCall& call) {
  run_aos<false, VOXELS_PER_THREAD, policy::POLY_OF_4, SincosMode::mufu>(
      call, "mriq aos_kernel<global, 4 voxels, mufu/fma split>");
}

}  // namespace tessera::mriq_impl
