// Step 5, pipelined with split chains (tuning of fused_pipelined_pair for the
// wide accumulators: double, Kahan, double-float).
//
// Over fused_pipelined_pair (384 x 28 tile, 2 row buffers, two blocks per SM
// for Kahan / double-float at <= 80 registers, one block of 12 warps of 140
// registers for double): that kernel scans each thread's 28 items as one
// dependent chain per pass, 28 x the add's latency (double-float ~28 cycles,
// double ~8 plus the conversions) per pass, with 12-24 warps per SM to cover
// it; the H100 profile of the double row shows it latency-bound (0.73
// eligible warps of 3 per scheduler, issue 45% busy, 81% of copy). Here
// (scan_chains.cuh):
// - each thread's items are 2 independent chains of 14, advanced
//   interleaved: the serial latency per pass halves, for one extra combine
//   per thread per pass (~4% more arithmetic);
// - two blocks per SM for every accumulator, double included (80 registers,
//   no spills: two chains keep fewer double states live than Pair's single
//   chain did at 140): double goes from 12 to 24 warps per SM, and two
//   blocks interleave their barriers and block scans;
// - no per-item range test at all: Pair tests every item's range in every
//   pass (ALU: the busiest pipe in the profile), and scan_tile's FAST
//   (fused_pipelined) gives full threads a constant-bound copy of the loops
//   that the row's tail thread, in the same warp as full threads, diverges
//   from: that warp runs both copies (~2.2x its share, and the block waits
//   for it at every barrier). Here a warp holding a row edge zeroes its
//   padding items (exact: adding 0 leaves the sums as they are) and masks
//   the backward pass over the forward values with selects; every warp runs
//   one copy of the loops;
// - the block suffix scan combines the 12 warp totals as a warp scan (5
//   dependent steps) instead of Pair's serial walk (12 dependent combines).
// Buffers as Pair: two 42 KB stages per block, 172 KB per SM.
//
// Bottleneck: DRAM bandwidth once the chains' latency is covered. Expected on
// 10,000 x 10,000 forward_backward: double ~88-92% of copy (24 warps x 2
// chains = 4x Pair's independent chains per SM; its DADD and F2F work, ~1.3
// us per row per SM, overlaps the ~3.9 us DRAM time), Kahan and
// double-float ~75-85% (their ~40 FADD a sample, ~2 us of issue per row per
// SM, stay the larger share of the SM's work), float ~86-90% (not its
// target; fused_pipelined stays float's).
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_chains, ChainPolicy, 2, false)

}  // namespace tessera::batched_scan_impl
