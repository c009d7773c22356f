// The constant-memory mask of rungs 3-6 (seed 000 "Conv", Constant Memory for
// Filter). `static`: each rung's file has its own copy of the symbol (no
// relocatable device code), filled by its own run() from the call's device
// mask with a device-to-device copy on the call's stream (graph-capturable).
//
// One symbol per rung per process: two calls of the same constant-memory
// rung with different masks on two streams at once would race on it. The
// product rungs (register_blocked, separable, fft) pass their masks as
// kernel parameters or workspace and do not share state.
#pragma once

#include <cuda_runtime.h>

#include "families/convolution/contract.hpp"
#include "families/convolution/tiles.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::convolution_impl::gpu {

static __constant__ float c_mask[tiles::CONST_TAPS];

inline void upload_constant_mask(const ConvCall& call) {
  TESSERA_CUDA(cudaMemcpyToSymbolAsync(c_mask, call.mask, call.spec.taps() * sizeof(float), 0,
                                       cudaMemcpyDeviceToDevice, call.stream));
}

}  // namespace tessera::convolution_impl::gpu
