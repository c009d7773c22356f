// MRI-Q step 10: the argument in turns. k is packed unscaled (turns), the
// reduction r = t - rint(t) to [-1/2, 1/2] is exact and costs three
// FMA-pipe adds (rint through the 1.5 x 2^23 trick, no MUFU or F2F), and
// then:
//   turns_mufu: MUFU on 2 pi r in [-pi, pi] (its most accurate range) —
//               the accuracy of the reduction with MUFU's speed;
//   turns_poly: no MUFU at all, near-minimax polynomials in r^2 on the FMA
//               pipe (~21 issue slots per pair): the FMA-pipe rate and the
//               polynomial's error on their own.
// Each row's note gives its error against the double reference; step 11
// mixes the two pipes.
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

void run_turns_mufu(const MriqCall& call) {
  run_aos<false, VOXELS_PER_THREAD, 0, SincosMode::turns_mufu>(call, "mriq aos_kernel<global, 4 voxels, turns mufu>");
}

void run_turns_poly(const MriqCall& call) {
  run_aos<false, VOXELS_PER_THREAD, 4, SincosMode::mufu>(call, "mriq aos_kernel<global, 4 voxels, poly>");
}

}  // namespace tessera::mriq_impl
