// The lab's own compose rungs (same contract as
// src/families/compose/cuda_rungs.hpp): the policies of the one-pass kernels
// that the product does not use.
#pragma once

#include "families/compose/cuda_rungs.hpp"

namespace tessera::compose_impl {

#if TESSERA_HAVE_CUDA
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass)       // select_single_pass_sweep.cu: the primary policy
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_lean)  // select_single_pass_sweep.cu
TESSERA_DECLARE_COMPOSE_RUNG(rle_single_pass)          // rle_single_pass_split_status.cu: the first policy
#endif

}  // namespace tessera::compose_impl
