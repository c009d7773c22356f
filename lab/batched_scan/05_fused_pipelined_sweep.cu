// Step 5, the lab's sweep of the fused pipelined kernel
// (src/families/batched_scan/pipelined_kernel.cuh): one row per policy,
// row-buffer count and store form, each the measured point of an experiment
// that led to the product's fused_pipelined_bulk (float) and
// fused_pipelined_lazy_bulk (the 8-byte accumulators); the LeanChain and
// LazyChain rows are in 05_fused_pipelined_lean.cu. Rejected policies and
// their measurements: tuning_pipelined.cuh. Figures: H100, 10,000 x 10,000
// forward_backward, % of copy, float / double / Kahan / double-float.
#include "batched_scan/lab_rungs.hpp"
#include "batched_scan/tuning_pipelined.cuh"

namespace tessera::batched_scan_impl {

using gpu_detail::WidePolicy;

// 896 x 12, one block per SM, 3 row buffers, 16-byte cp.async copies: 91.4 /
// 72.4 / 49.0 / 47.6 (-23b), float 92.4-92.8 later; with bulk copies it is
// fused_pipelined_bulk (94.5-95.0, bitwise the same).
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined, WidePolicy, 3, false)
// 2 row buffers (one row of loads in flight): 88.5 / 73.0 / 48.7 / 47.3.
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_two_stages, WidePolicy, 2, false)
// Each thread's 12 outputs stored as 3 float4s straight from registers where
// the output row's alignment allows (no staging, 3 barriers per row): 22.1 /
// 23.1 / 22.2 / 22.0: a thread's 48-byte strided stores cost the write
// requests, not the bytes, and quartered the speed.
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_register_stores, WidePolicy, 3, true)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_two_blocks, tuning::TwoBlocksPolicy, 2, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_two_chains, tuning::TwoChainsPolicy, 2, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_masked, tuning::WideMaskedPolicy, 3, false)
}  // namespace tessera::batched_scan_impl
