// The CUDA rungs of the scan ladder (steps 2-9) and the vendor baseline
// (step 10). Each rung provides
//   run_X(call)        enqueue the scan on call.stream (no allocation, no host
//                      synchronisation: graph-capturable);
//   ws_X(spec)         workspace bytes run_X needs (0 when n == 0);
//   supports_X(spec)   whether the rung handles (dtype, op, accum).
// ladder.cpp turns them into the family's table. Plain C++: no CUDA headers
// needed to include this. The lab's tuning rows of step 9 are built from
// lookback_rows.cuh's templates (lab/scan/).
#pragma once

#include <cstddef>

#include "families/scan/contract.hpp"

namespace tessera::scan_impl {

#define TESSERA_DECLARE_SCAN_RUNG(name)          \
  void run_##name(const ScanCall& call);         \
  std::size_t ws_##name(const ScanSpec& spec);   \
  bool supports_##name(const ScanSpec& spec);

// 02_kogge_stone.cu
TESSERA_DECLARE_SCAN_RUNG(kogge_stone)
// 03_kogge_stone_double_buffer.cu
TESSERA_DECLARE_SCAN_RUNG(kogge_stone_double_buffer)
// 04_brent_kung.cu
TESSERA_DECLARE_SCAN_RUNG(brent_kung_modulo)
TESSERA_DECLARE_SCAN_RUNG(brent_kung_index)
TESSERA_DECLARE_SCAN_RUNG(brent_kung_padded)
// 05_three_phase.cu
TESSERA_DECLARE_SCAN_RUNG(three_phase)
// 06_warp_shuffle.cu
TESSERA_DECLARE_SCAN_RUNG(warp_shuffle)
// 07_hierarchical.cu
TESSERA_DECLARE_SCAN_RUNG(hierarchical)
TESSERA_DECLARE_SCAN_RUNG(reduce_then_scan)
// 08_chained.cu
TESSERA_DECLARE_SCAN_RUNG(chained)
// 09_lookback.cu (every type and accumulator)
TESSERA_DECLARE_SCAN_RUNG(lookback)
// 09_lookback_bulk.cu (4-byte native scans)
TESSERA_DECLARE_SCAN_RUNG(lookback_bulk)
// 10_cub_device_scan.cu (every type and accumulator)
TESSERA_DECLARE_SCAN_RUNG(cub_device_scan)

#undef TESSERA_DECLARE_SCAN_RUNG

}  // namespace tessera::scan_impl
