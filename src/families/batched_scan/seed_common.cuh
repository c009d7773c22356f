// What seed 002's three kernels (steps 2-4) share: float accumulation only
// (forward_backward goes through global memory between its passes, so the
// forward result is rounded to float: exact only when the accumulator is
// float), any shape, and a grid of one warp per group of rows capped at what
// the GPU holds (the kernels loop over the rest).
#pragma once

#include <cstddef>

#include "families/batched_scan/common.cuh"

namespace tessera::batched_scan_impl::gpu_detail {

constexpr unsigned SEED_WARP = 32;  // the seed's tiles are one warp wide and 32 rows tall

inline bool seed_supports(const ScanSpec& s) { return s.accum == Accum::native; }

// One block per `rows_per_block` rows, at most 64 blocks per SM of grid-stride
// work (enough to fill the 32-block residency limit twice).
inline unsigned seed_grid(std::size_t rows, std::size_t rows_per_block, const char* kernel, const ScanSpec& s) {
  const std::size_t want = (rows + rows_per_block - 1) / rows_per_block;
  const std::size_t cap = static_cast<std::size_t>(gpu::sm_count()) * 64;
  return grid_of(want < cap ? want : cap, kernel, s);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
