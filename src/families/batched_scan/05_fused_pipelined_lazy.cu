// Step 5, pipelined chains with lazily renormalised wide states
// (fused_pipelined_lazy, a tuning row: fused_pipelined_chains2 with the
// double-float and Kahan sums of lazy_sums.cuh; fused_pipelined_lazy_bulk
// adds the bulk tile copies and is the API's pick).
//
// H100 profile of fused_pipelined_chains4 with double-float (10,000 x 10,000
// forward_backward, ncu): 353 us, issue slots 71% busy with 2.7 eligible warps
// per scheduler, DRAM at 66% of peak: issue-bound, where double (289 us, 31%
// busy) and float sit at the row-copy rate. FADD is most of the issue: per
// sample the forward add (10 additions), the backward pass's two combines
// (11 each) and the rounding combine (9), ~41 of ~76 instructions.
//
// This rung keeps chains2's tile and lean tile traffic and runs the
// double-float and Kahan sums without their renormalisation step
// (lazy_sums.cuh: LazyDFloatSum, LazyKahanSum), in the chains, the block
// scans and the carries alike: per sample double-float ~48 -> ~35 additions
// (the ncu source counters of chains4 with the lazy items only: FADD 66% of
// the issue, 48 per sample, 16 of them outside the item loops), Kahan
// ~40 -> ~32. Error bound unchanged (lazy_sums.cuh says why). Float and
// double compile to chains2's code. With lazy sums the dependent chain per
// item is one FADD for the leading part (two_sum's other additions are off
// it), so 2 chains per thread suffice (H100, 10,000 x 10,000 double-float:
// 1, 2 and 4 chains 87.4 / 87.3 / 87.0% of copy).
//
// Bottleneck: issue for double-float and Kahan, the row-copy rate for float
// and double. Measured on 10,000 x 10,000 forward_backward (H100): double-
// float 78.2 -> 87.3% of copy (chains4 -> lazy), Kahan 82.9 -> 87.9%;
// predicted 86-89% and 86-88%.
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_lazy, LazyChainPolicy<2>, 2, false)

}  // namespace tessera::batched_scan_impl
