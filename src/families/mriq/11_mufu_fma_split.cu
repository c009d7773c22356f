// MRI-Q step 11: the MUFU/FMA split. Of every policy::SPLIT_GROUP (8)
// samples, policy::POLY_OF_GROUP (1) take the short FMA-pipe polynomials
// (turns, sincos_turns_poly_short) and the rest MUFU (radians, no
// reduction: the fewest issue slots). global_aos is MUFU-bound with its
// issue port ~88 % busy (a MUFU warp instruction costs ~3.5 issue slots,
// fitted to the H100 run): so only a little work can move. Per pair
// (SASS, issue-slot equivalents): MUFU 9.1 + 2.5 x 2 = 14.1, polynomial
// 20; MUFU-pipe time 2 SM clocks a warp-pair. 1 in 8: issue 3.67 clocks,
// MUFU 3.5, against global_aos's 4 (MUFU): predicted 1.08x, measured
// 1.013x on the H100 (docs/mriq.md). The old 1 in 4 with the long polynomial was
// issue-bound at 4.06 and measured 0.96x.
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"
#include "families/mriq/policy.hpp"

namespace tessera::mriq_impl {

void run_mufu_fma_split(const MriqCall& call) {
  run_aos<false, VOXELS_PER_THREAD, policy::POLY_OF_GROUP, SincosMode::mufu, policy::SPLIT_GROUP,
          SincosMode::poly_short>(call, "mriq aos_kernel<global, 4 voxels, mufu/fma split 1 in 8>");
}

}  // namespace tessera::mriq_impl
