// The lab's own batched_scan rungs (Role::tuning; register.cpp holds their
// rows): run / workspace / supports, as cuda_rungs.hpp declares the
// product's. Plain C++. The lab's multi-tile rows run product entry points
// declared there.
#pragma once

#include <cstddef>

#include "families/batched_scan/contract.hpp"

namespace tessera::batched_scan_impl {

TESSERA_BSCAN_DECLARE_RUNG(fused_occupancy)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_two_stages)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_register_stores)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_two_blocks)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_two_chains)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_masked)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_two_chains_lean)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_four_chains_lean)
TESSERA_BSCAN_DECLARE_RUNG(fused_pipelined_lazy)

}  // namespace tessera::batched_scan_impl
