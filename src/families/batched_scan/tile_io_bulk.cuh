// tile_io_lean.cuh's tile load and staged store for one-tile rows with the
// Hopper bulk copy engine (TMA, cp.async.bulk; fused_pipelined_bulk,
// 05_fused_pipelined_bulk.cu).
//
// The lean loops still cost every thread ~200 instructions per row each way
// (the ncu source counters of the lab's fused_pipelined_lazy with double-float: ~22% of
// its issue is the prefetch and the store, per-row address set-up, head and
// tail tests and one LDGSTS or LDS + STG per float4). Here one thread moves
// the row's 16-byte-aligned body with a single bulk copy each way; the at
// most 3 + 3 head and tail samples stay 4-byte copies by as many threads.
// - load: thread 0 arms the stage's mbarrier with the body's byte count and
//   issues cp.async.bulk global -> shared; every thread waits on the
//   mbarrier's phase (bulk_wait) besides the cp.async group of the scalars;
// - store: after the staged outputs are written, every writer fences them
//   to the async proxy (fence.proxy.async) before the barrier; thread 0 then
//   issues cp.async.bulk shared -> global; before the stage's buffer is
//   refilled (the next iteration's prefetch), thread 0 waits until the bulk
//   store has read it (bulk_wait_read), and before the kernel ends until it
//   has completed.
// Same samples, same bytes written as the lean path; only who moves them.
// sm_90 or newer (TESSERA_BULK_COPY); elsewhere the kernels keep the lean path.
#pragma once

#include <cstdint>

#include "families/batched_scan/tile_io_lean.cuh"
#include "tessera/blocks/mbarrier.cuh"

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define TESSERA_BULK_COPY 1
#else
#define TESSERA_BULK_COPY 0
#endif

namespace tessera::batched_scan_impl::gpu_detail {

using gpu::smem_address;

#if TESSERA_BULK_COPY
// One arrival (thread 0's) per use; call by one thread, then __syncthreads.
__device__ __forceinline__ void bulk_barrier_init(std::uint64_t* bar) {
  gpu::mbar_init(bar, 1);
  gpu::mbar_init_fence();
}

// Spins until the phase of `bar` with this parity has completed.
__device__ __forceinline__ void bulk_wait(std::uint64_t* bar, unsigned parity) { gpu::mbar_wait(bar, parity); }

// The staged outputs written by this thread, made visible to the bulk copy.
__device__ __forceinline__ void fence_to_bulk() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// Thread 0: every bulk store issued so far has read its shared source.
__device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory"); }
// Thread 0: every bulk store issued so far has completed.
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }

// tile_load_async_lean's contract (all threads call it; the scalars join the
// caller's cp.async group, which the caller commits) plus the body as one
// bulk copy completing on `bar` (armed by thread 0 even when the body is
// empty, so that the phase always completes).
__device__ __forceinline__ void tile_load_bulk(float* smem, const float* row, int e0, int lo, int hi,
                                               std::uint64_t* bar) {
  int head_end, body_end;
  split_aligned_lean(row, lo, hi, head_end, body_end);
  const int tid = static_cast<int>(threadIdx.x);
  if (tid < head_end - lo) __pipeline_memcpy_async(smem + (lo + tid - e0), row + (lo + tid), sizeof(float));
  if (tid < hi - body_end)
    __pipeline_memcpy_async(smem + (body_end + tid - e0), row + (body_end + tid), sizeof(float));
  if (tid == 0) {
    const unsigned bytes = static_cast<unsigned>(body_end - head_end) * sizeof(float);  // a multiple of 16
    gpu::mbar_arrive_expect_tx(bar, bytes);
    if (bytes > 0) gpu::bulk_copy_to_shared(smem + (head_end - e0), row + head_end, bytes, bar);
  }
}

// tile_store_lean's contract (after fence_to_bulk and the barrier that
// published the staged outputs): scalars head and tail by threads, the body
// as one bulk store by thread 0 (one bulk group per row).
__device__ __forceinline__ void tile_store_bulk(const float* smem, float* out_row, int e0, int c, int lo, int hi) {
  int head_end, body_end;
  split_aligned_lean(out_row, lo, hi, head_end, body_end);
  const int tid = static_cast<int>(threadIdx.x);
  const int shift = c - e0;  // slot = e + shift
  if (tid < head_end - lo) __stcs(out_row + (lo + tid), smem[lo + tid + shift]);
  if (tid < hi - body_end) __stcs(out_row + (body_end + tid), smem[body_end + tid + shift]);
  if (tid == 0 && body_end > head_end) {
    const unsigned bytes = static_cast<unsigned>(body_end - head_end) * sizeof(float);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(out_row + head_end),
                 "r"(smem_address(smem + (head_end + shift))), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  }
}
#endif

}  // namespace tessera::batched_scan_impl::gpu_detail
