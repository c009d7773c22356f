// Shared-memory barriers (mbarrier) and the Hopper bulk copy (TMA,
// cp.async.bulk) global -> shared, for kernels whose warps play different
// roles (a producer warp fills buffers, others consume them) and so cannot
// meet at __syncthreads.
//
// An mbarrier counts arrivals (and, for bulk copies, bytes); a phase
// completes when the expected arrivals and bytes are in, and the barrier
// moves to the next phase. Waiters name the phase by its parity: the k-th
// use of a barrier (k = 0, 1, ...) has parity k & 1. mbarrier.arrive
// releases and try_wait acquires at CTA scope, so what a thread wrote to
// shared (or global) memory before arriving is visible to the threads that
// waited for that phase.
//
// sm_90 or newer (TESSERA_MBARRIER).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "tessera/core/cuda_check.hpp"

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define TESSERA_MBARRIER 1
#else
#define TESSERA_MBARRIER 0
#endif

namespace tessera::gpu {

// Host: whether a bulk-copy kernel with `shared_bytes` of shared memory per
// block (static and dynamic) can run on the current device: sm_90 or newer,
// and within what a block may opt in to (227 KiB on the H100; less on some
// later parts). Callers fall back to a kernel without bulk copies otherwise.
inline bool bulk_kernel_fits(std::size_t shared_bytes) {
  int device = 0, major = 0, optin = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return major >= 9 && static_cast<std::size_t>(optin) >= shared_bytes;
}

__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

#if TESSERA_MBARRIER
// One thread, before the block's first barrier (__syncthreads) after it.
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(bar)), "r"(arrivals) : "memory");
}
// After the inits: makes them visible to the async proxy (bulk copies).
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_address(bar)) : "memory");
}

// Arrives and adds `bytes` to the bytes the current phase waits for.
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_address(bar)), "r"(bytes)
               : "memory");
}

// Spins until the phase of `bar` with this parity has completed.
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_address(bar)), "r"(parity)
        : "memory");
}

// Bulk copy of `bytes` (a multiple of 16; both addresses 16-byte aligned)
// from global to shared memory, completing `bytes` on `bar` (whose phase
// must expect them: mbar_arrive_expect_tx).
__device__ __forceinline__ void bulk_copy_to_shared(void* smem, const void* global, unsigned bytes,
                                                    std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          smem_address(smem)),
      "l"(global), "r"(bytes), "r"(smem_address(bar))
      : "memory");
}

// L2 eviction priorities for the hinted copies: lines a kernel reads again
// soon (evict_last) and lines it is done with (evict_first).
__device__ __forceinline__ std::uint64_t l2_evict_last() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0;\n" : "=l"(p));
  return p;
}
__device__ __forceinline__ std::uint64_t l2_evict_first() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0;\n" : "=l"(p));
  return p;
}

// bulk_copy_to_shared with an L2 eviction priority for the lines it reads.
__device__ __forceinline__ void bulk_copy_to_shared_hinted(void* smem, const void* global, unsigned bytes,
                                                           std::uint64_t* bar, std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], "
      "%4;\n" ::"r"(smem_address(smem)),
      "l"(global), "r"(bytes), "r"(smem_address(bar)), "l"(policy)
      : "memory");
}
#endif

}  // namespace tessera::gpu
