// The CUDA rungs of the batched_scan ladder (steps 2-7). Each rung provides
//   run_X(call)        enqueue the scan on call.stream (no allocation, no
//                      host synchronisation: graph-capturable);
//   ws_X(spec)         workspace bytes run_X needs;
//   supports_X(spec)   whether the rung handles the spec (shape, accumulator).
// variants.cpp turns them into the ScanVariant table. Plain C++: no CUDA
// headers needed to include this (the public API reads the length limits).
#pragma once

#include <cstddef>

#include "patterns/batched_scan.hpp"

namespace tessera::batched_scan_impl {

// Rows up to this length go to the short-row path (4 samples per lane, at most
// 32 lanes per row: 128); up to FUSED_MAX_LEN to the fused one-pass kernel (a
// row in one block: 256 threads x 44 samples, minus 3 for the alignment
// shift of the row's first sample); longer rows to the look-back path.
inline constexpr std::size_t SHORT_ROW_MAX_LEN = 128;
inline constexpr std::size_t FUSED_MAX_LEN = 256 * 44 - 3;

}  // namespace tessera::batched_scan_impl
