// Asynchronous global -> shared copies (cp.async, sm_80 and later): the
// copy engine of the load/store unit writes shared memory directly, without
// staging through registers, and the issuing thread waits on commit groups.
// A multi-stage pipeline issues the copies for tile t + STAGES - 1 while it
// computes on tile t.
//
// Contract (PTX ISA, cp.async): `src_bytes` < the copy size zero-fills the
// rest of the destination and reads only `src_bytes` bytes, so a copy with
// src_bytes = 0 reads nothing (callers still pass a valid address). After
// cp_async_wait<N>() the data of all but the N most recent groups is visible
// to the issuing thread; a __syncthreads() then publishes it to the block.
#pragma once

#include <cuda_runtime.h>

namespace tessera::gpu {

// 4 bytes (cache at all levels: .cg exists for 16-byte copies only).
__device__ __forceinline__ void cp_async_4(float* smem, const float* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int src_bytes = valid ? 4 : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem), "r"(src_bytes) : "memory");
}

// 16 bytes, bypassing L1 (.cg: the tiles are reused from shared memory, not
// L1). Both addresses 16-byte aligned; src_bytes in 0..16.
__device__ __forceinline__ void cp_async_16(float* smem, const float* gmem, int src_bytes) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most N of this thread's committed groups are pending.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace tessera::gpu
