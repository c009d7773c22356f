// Step 5, pipelined chains with leaner per-row work (fused_pipelined_chains2
// and fused_pipelined_chains4, tunings of fused_pipelined_chains for the wide
// accumulators: double, Kahan, double-float).
//
// Over fused_pipelined_chains (384 x 28 tile, 2 chains of 14 per thread, two
// blocks per SM at 80 registers, 2 row buffers per block; H100: double
// 87.3%, Kahan 73.1%, double-float 68.7% of copy), the instructions around
// the accumulator arithmetic:
// - every item of every pass selects the inclusive or the exclusive state at
//   run time: for the 8-byte states 2 SEL per item per pass, 4 per sample in
//   forward_backward, beside double's ~7 (2 F2F, 4 DADD, the float4
//   shared-memory traffic) and Kahan's / double-float's ~20-30: here the
//   inclusive and exclusive scans are separate inlined copies (EXCL_SPLIT);
// - the tile's float4 load (cp.async) and store loops walk 64-bit indices
//   with a run-time trip count (~10-12 instructions per float4, 7 float4s
//   per thread per direction): here tile_io_lean.cuh's 32-bit loops,
//   unrolled to the constant bound of 7 (a compare and one predicated
//   instruction at an immediate offset per float4);
// - the row of a tile is t / T, a 64-bit division (a ~40-instruction
//   subroutine) twice per row (prefetch and scan): here skipped when every
//   row is one tile (T == 1, always on this rung).
// Same association and arithmetic as fused_pipelined_chains: bitwise the
// same outputs.
// fused_pipelined_chains4 (tuning): the same with 4 chains of 7 per thread.
// ptxas (sm_90, CUDA 13): 80 registers, no spills for double, Kahan and
// double-float (72 for float), where Chains' double spilled 72 bytes with 4
// chains: the ints of the lean span free the registers. Each pass's
// dependent chain is 7 adds plus 3 serial combines of the chain totals
// (double ~10 x 8 cycles, double-float ~10 x 28) instead of 14 + 1.
//
// Bottleneck: DRAM bandwidth once the issue slots are freed. Expected on
// 10,000 x 10,000 forward_backward: per thread per row chains spends ~28 x
// 11 = 310 instructions on double's items and ~2 x 7 x 11 + 2 x 45 = 240 on
// the tile traffic and row setup; this rung removes ~56 SEL and ~150
// instructions of the latter, ~35% of double's issue: double ~90-92% of copy
// (from 87.3%, the latency of the row's 4 barriers stays), Kahan ~77-80%
// and double-float ~72-75% (their FADD chains, ~25-30 instructions per
// sample, stay the larger part of the issue: a ~10-15% cut of it).
// chains4: the same issue (+2 combines per thread per pass, <1%) with half
// the per-pass latency: double ~90-92% (it is not latency-bound once the
// issue is cut), Kahan ~79-83%, double-float ~74-78% (a 14-deep two-sum
// chain, ~400 cycles per pass, is a large share of a row's ~7,000-cycle
// budget at 24 warps per SM).
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_chains2, LeanChainPolicy<2>, 2, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_chains4, LeanChainPolicy<4>, 2, false)

}  // namespace tessera::batched_scan_impl
