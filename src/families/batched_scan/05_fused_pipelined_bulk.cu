// Step 5, pipelined rows moved by the bulk copy engine: the fused one-pass
// scan (a row of up to FUSED_MAX_LEN samples per tile, forward and backward
// on chip in the accumulator) run by persistent blocks that keep the next
// rows' copies in flight while they scan and store the current one
// (pipelined_kernel.cuh), each row's 16-byte-aligned body moved by one
// cp.async.bulk each way (Hopper TMA, an mbarrier per row buffer;
// tile_io_bulk.cuh); the 3 + 3 edge samples stay 4-byte copies.
//
// - fused_pipelined_bulk (float's pick): 896 threads x 12 samples, one block
//   per SM, 3 row buffers. 12-step accumulator chains and 28 warps per SM
//   hide the scan's latency; the 28-warp block suffix scan is a warp scan of
//   the warp totals, and full threads run constant-bound item loops (FAST).
// - fused_pipelined_lazy_bulk (double, Kahan and double-float's pick): the
//   384 x 28 tile at two blocks per SM (80 registers, no spills), each
//   thread's 28 items as 2 interleaved chains of 14 (scan_chains.cuh),
//   separate inclusive / exclusive copies, the double-float and Kahan sums
//   without their renormalising step (lazy_sums.cuh: ~13 of double-float's
//   ~48 additions per sample gone, ~8 of Kahan's ~40). Two blocks interleave
//   their barriers; one 28-warp block with 12-item threads does not suit
//   the 8-byte states (lab: fused_pipelined at 47-72% of copy for them).
//
// The bulk copies cut the tile traffic, ~22% of the lazy double-float
// kernel's issue in ncu's source counters (per row and thread ~200
// instructions each way: address set-up, head and tail tests, one LDGSTS or
// LDS + STG per float4). Same bytes, same arithmetic: bitwise the outputs of
// the lab's fused_pipelined and fused_pipelined_lazy (their float4 loops).
//
// Bottleneck: DRAM for float and double, issue for double-float and Kahan.
// Measured on 10,000 x 10,000 forward_backward (H100, copy 3,006-3,012
// GB/s): float 92.7 -> 94.5-95.0% of copy (3.35x the CUB composition; 4
// row buffers 92.8%, 5 stages 90.6%); lazy_bulk double 90.5 -> 91.8-93.1%,
// Kahan 87.5 -> 89.7-90.6%, double-float 87.1 -> 89.2-90.1% (1 and 4
// chains within 0.5 point of 2). The Wide tile through tile_io_lean.cuh's
// 32-bit loops (LEAN) failed verification on the H100 (wrong sums from
// one-sample rows up; the cause is not yet found, the LeanChain policies
// that use those loops pass), so WideBulk keeps the 64-bit span and only
// its copies change.
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_bulk, gpu_detail::WideBulkPolicy, 3, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_lazy_bulk, gpu_detail::BulkLazyPolicy<2>, 2, false)

}  // namespace tessera::batched_scan_impl
