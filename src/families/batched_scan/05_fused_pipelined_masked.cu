// Step 5, pipelined with masked padding (tuning of fused_pipelined for the
// float accumulator).
//
// Over fused_pipelined (896 x 12 tile, 3 row buffers, one 28-warp block per
// SM, 55 registers): the H100 profile of its float row (93% of copy in the
// kernel, issue slots 60% busy, the ALU pipe the busiest at 49.8% for a scan
// of float adds) points at the work around the adds:
// - scan_tile's FAST gives full threads a constant-bound copy of the item
//   loops and keeps the predicated copy for the others; the warp holding a
//   row's tail (on 10,000-sample rows warp 26: one full thread, the partial
//   one, 30 empty) runs both copies, and with one block per SM every one of
//   the row's 4 barriers waits for that warp;
// - every item of every pass selects inclusive or exclusive at run time
//   (one FSEL per item per pass: 2 per sample beside 4 FADD).
// Here the scan is scan_chains.cuh's with one chain: one unpredicated copy of
// the loops, the edge warps zero their padding items and mask the backward
// pass with selects (warp-uniform, __all_sync), and the inclusive and
// exclusive scans are separate inlined copies (EXCL_SPLIT). Same association
// as fused_pipelined: bitwise the same outputs for the row's samples.
//
// Bottleneck: DRAM bandwidth. Expected on 10,000 x 10,000 forward_backward,
// float: ~93-95% of copy (from 91.4%: the tail warp's second copy of the
// loops and ~1/4 of the ALU instructions per sample gone; the row's fixed
// index work and barriers remain). The wide accumulators run Wide's shape
// here as in fused_pipelined (~50-75%); fused_pipelined_chains is theirs.
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_masked, WideMaskedPolicy, 3, false)

}  // namespace tessera::batched_scan_impl
