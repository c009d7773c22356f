// MRI-Q step 8: __sinf/__cosf through the special-function unit (seed 000
// "MRI", Instruction: SFU): step 7 with MUFU.SIN and MUFU.COS instead of the
// precise sincosf (one shared FMUL.RZ to turns, two MUFU ops per pair).
// Bottleneck: MUFU itself, 16 per clock per SM: about 9 issue slots per pair
// against 16 clocks of MUFU per warp-pair, so the FMA pipe idles half the
// time. The error against the double reference is the row's note; MUFU.SIN
// loses accuracy as |argument| grows (the argument here reaches
// 2 pi x (|k| |x| summed), about 300 radians on the bench grids).
#include "families/mriq/aos_kernel.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

void run_mufu_intrinsics(const MriqCall& call) {
  run_aos<true, VOXELS_PER_THREAD, 0, SincosMode::mufu>(call, "mriq aos_kernel<constant, 4 voxels, mufu>");
}

}  // namespace tessera::mriq_impl
