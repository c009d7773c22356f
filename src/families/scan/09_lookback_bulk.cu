// Step 9 refinement — warp-specialised persistent look-back scan with bulk
// (TMA) tile loads (kernel, roles and budget: lookback_bulk.cuh; policy and
// fallback: lookback_rows.cuh). One block per SM: 256 consumer threads x 12
// vectors (48 KiB tiles) plus a producer, an aggregator and a look-back warp;
// 4 tile buffers (192 KiB of shared memory). The look-back warp polls 32
// slots, re-polling only the missing ones (lookback_sparse.cuh).
// Predicted 88-93% of copy, 1.08-1.14x cub::DeviceScan; measured on the H100
// (float sum 2^28) 92.1% = 1.13x, int32 92.6% = 1.14x: the API's pick for
// 4-byte native scans (policy.hpp). A 128-slot window was measured slower
// (lab/scan/tuning_lookback.cuh).
// Below sm_90 (no bulk copies), or where a block cannot have 196 KiB of
// shared memory, it runs the early-publishing kernel (lookback_early.cuh) on
// the same tiles. 4-byte elements with the native accumulator only (float,
// int32, uint32; sum, min, max).
#include "families/scan/cuda_rungs.hpp"
#include "families/scan/lookback_rows.cuh"

namespace tessera::scan_impl {

void run_lookback_bulk(const ScanCall& call) { BulkLookback<1>::run("lookback_bulk", call); }
std::size_t ws_lookback_bulk(const ScanSpec& spec) { return BulkLookback<1>::workspace(spec); }
bool supports_lookback_bulk(const ScanSpec& spec) { return four_byte_native(spec); }

}  // namespace tessera::scan_impl
