// The CUDA rungs of the cutoff ladder (steps 2-10); ladder.cpp lists them.
// Each provides
//   run_X(call)        compute the potential on call.stream into call.potential
//   workspace_X(spec)  the scratch bytes it needs in call.workspace
//   supports_X(spec)   launch limits, 32-bit counts, constant-memory room
// Plain C++: no CUDA headers needed to include this.
#pragma once

#include <cstddef>

#include "families/cutoff/contract.hpp"

#define TESSERA_DECLARE_CUTOFF_RUNG(name)                 \
  void run_##name(const CutoffCall& call);                \
  std::size_t workspace_##name(const CutoffSpec& spec);   \
  bool supports_##name(const CutoffSpec& spec);

namespace tessera::cutoff_impl {

TESSERA_DECLARE_CUTOFF_RUNG(direct_smoothed)   // 02_direct_smoothed.cu
TESSERA_DECLARE_CUTOFF_RUNG(const_bins)        // 03_const_bins.cu
TESSERA_DECLARE_CUTOFF_RUNG(offsets_constant)  // 04_offsets_constant.cu
TESSERA_DECLARE_CUTOFF_RUNG(shared_tiles)      // 05_shared_tiles.cu
TESSERA_DECLARE_CUTOFF_RUNG(cylinder)          // 06_cylinder.cu
TESSERA_DECLARE_CUTOFF_RUNG(gpu_binning)       // 07_gpu_binning.cu
TESSERA_DECLARE_CUTOFF_RUNG(dynamic_bins)      // 08_dynamic_bins.cu
TESSERA_DECLARE_CUTOFF_RUNG(sorted_cells)      // 09_sorted_cells.cu
TESSERA_DECLARE_CUTOFF_RUNG(sorted_cells_lean8) // 10_sorted_cells_lean8.cu
TESSERA_DECLARE_CUTOFF_RUNG(sorted_cells_lean) // 10_sorted_cells_lean.cu

}  // namespace tessera::cutoff_impl
