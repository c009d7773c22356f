// The CUDA rungs of the stencil7 ladder (steps 2-6); ladder.cpp lists them.
// Each provides run_X(call) (enqueue every sweep on call.stream: no
// allocation, no host synchronisation) and ws_X(spec) (its workspace bytes).
// Plain C++: no CUDA headers needed to include this.
#pragma once

#include "families/stencil7/contract.hpp"

namespace tessera::stencil7_impl {

#define TESSERA_DECLARE_STENCIL7_RUNG(name)        \
  void run_##name(const Stencil7Call& call);       \
  std::size_t ws_##name(const Stencil7Spec& spec); \
  bool supports_##name(const Stencil7Spec& spec);

TESSERA_DECLARE_STENCIL7_RUNG(naive)             // 02_naive.cu
TESSERA_DECLARE_STENCIL7_RUNG(z_pencil)          // 03_z_pencil.cu
TESSERA_DECLARE_STENCIL7_RUNG(register_tiling)   // 04_register_tiling.cu
TESSERA_DECLARE_STENCIL7_RUNG(shared_tiling)     // 05_shared_tiling.cu
TESSERA_DECLARE_STENCIL7_RUNG(temporal_blocking) // 06_temporal_blocking.cu

#undef TESSERA_DECLARE_STENCIL7_RUNG

// Sweeps one pass of temporal_blocking fuses, per element type.
int temporal_block_sweeps(Dtype dtype);

}  // namespace tessera::stencil7_impl
