// An L2 prefetch hint, shared by the look-back kernels that overlap the
// tile-index atomic's round trip with the fetch of the tile they will most
// likely get (scan lookback_early, compact single_pass_early).
#pragma once

namespace tessera::gpu {

// A hint: fetch the 128-byte line holding p into L2 (no register, no fault).
__device__ __forceinline__ void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

}  // namespace tessera::gpu
