// Step 5, pipelined rows moved by the bulk copy engine (fused_pipelined_bulk:
// fused_pipelined with tile_io_bulk.cuh; fused_pipelined_lazy_bulk:
// fused_pipelined_lazy with it).
//
// The ncu source counters of the lazy double-float kernel put ~22% of its
// issue in the tile traffic: per row and thread ~200 instructions each way
// (address set-up, head and tail tests, one LDGSTS or LDS + STG per float4).
// Here thread 0 moves a row's 16-byte-aligned body with one cp.async.bulk
// each way (an mbarrier per stage for the load, a bulk group per row for the
// store); the 3 + 3 edge samples stay 4-byte copies. Same bytes, same
// arithmetic: bitwise the outputs of fused_pipelined and of
// fused_pipelined_lazy.
//
// Bottleneck: DRAM for float and double (the bulk copies also cut the
// row-copy cost: the SM no longer issues 2 x 2,688 16-byte requests per
// row), issue for double-float and Kahan. Measured on 10,000 x 10,000
// forward_backward (H100, copy 3,006-3,012 GB/s): float fused_pipelined
// 92.7 -> 94.5-94.9% of copy (3.35x the CUB composition; more row buffers
// lose: 4 stages 92.8%, 5 stages 90.6%); lazy_bulk double 90.5 -> 92.1%,
// Kahan 87.5 -> 90.0%, double-float 87.1 -> 89.4% (2 chains; 1 and 4 chains
// 89.3 / 89.0%). The Wide tile through tile_io_lean.cuh's 32-bit loops (LEAN)
// failed verification on the H100 (wrong sums from one-sample rows up; the
// cause is not yet found, the LeanChain rungs that use those loops pass), so
// WideBulk keeps fused_pipelined's 64-bit span and only its copies change.
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_bulk, WideBulkPolicy, 3, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_lazy_bulk, BulkLazyPolicy<2>, 2, false)

}  // namespace tessera::batched_scan_impl
