// Block-level reductions shared by the reduce rungs. Each later rung calls the
// building block that its predecessor introduced and changes one thing:
//
//   block_reduce_smem_interleaved   step 4  sequential addressing in shared
//                                           memory, stride halving from
//                                           blockDim/2 (no bank conflicts)
//   block_reduce_smem_early_exit    step 5  same, threads with nothing left to
//                                           do leave (seed 004); used by 5, 6
//   warp_reduce_smem_last_warp      step 7  the last 64 -> 1 steps in one warp
//   block_reduce_smem_last_warp     step 7  tree with barriers down to 64,
//                                           then the unrolled last warp
//   block_reduce_smem_unrolled      step 8  block size as a template: the
//                                           tree is fully unrolled
//   block_reduce_shuffle            step 9  warp shuffles, shared memory only
//                                           for the BLOCK/32 warp partials;
//                                           used by 9 and 10
//
// Conventions: every thread of the block calls these with its own value `v`
// (R::identity() when it has no data); the total is returned to thread 0
// (other threads get partial values). They start with a barrier-protected
// store, so a caller may reuse the scratch right after a __syncthreads().
// Scratch is the kernel's dynamic shared memory (dynamic_smem<acc_t>()):
// blockDim.x accumulators for the shared-memory trees, BLOCK / 32 for the
// shuffle version. Block sizes are powers of two, at least 64.
//
// Volta and later do not run a warp in lock-step, so the last-warp code
// orders its shared-memory steps with __syncwarp() (no bare `volatile`).
#pragma once

#include "tessera/blocks/reducers.hpp"
#include "tessera/blocks/warp_reduce.cuh"

namespace tessera::gpu {

// The kernel's dynamic shared memory viewed as T[] (16-byte aligned).
template <class T>
__device__ __forceinline__ T* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  return reinterpret_cast<T*>(smem_raw);
}

// Step 4: interleaved pairs. Active threads stay contiguous (tid < stride) and
// read s[tid + stride]: consecutive threads touch consecutive words, no bank
// conflicts. Barriers sit outside the `if`.
template <class R>
__device__ __forceinline__ typename R::acc_t block_reduce_smem_interleaved(typename R::acc_t* s,
                                                                           typename R::acc_t v) {
  const unsigned tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      v = R::combine(v, s[tid + stride]);
      s[tid] = v;
    }
    __syncthreads();
  }
  return v;
}

// Step 5: as step 4, but a thread returns as soon as it has nothing left to do
// (tid >= stride) instead of idling through the remaining barriers. Returns
// false to such a thread, which must then leave the kernel at once (no further
// barrier): an exited thread no longer counts at __syncthreads (PTX `exit`
// releases barriers that wait only on exited threads), so the survivors'
// barriers still complete. Thread 0 gets true and the total in `v`.
// One barrier per level, placed before the reads (seed 004's second form).
template <class R>
__device__ __forceinline__ bool block_reduce_smem_early_exit(typename R::acc_t* s, typename R::acc_t& v) {
  const unsigned tid = threadIdx.x;
  s[tid] = v;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (tid >= stride) return false;
    v = R::combine(v, s[tid + stride]);
    s[tid] = v;
  }
  return true;
}

// Step 7: the last six levels (64 values -> 1) inside warp 0, unrolled. Call
// with all 32 lanes of warp 0 (tid < 32) after a barrier that published
// s[0..63]; `v` is the lane's own s[tid]. Each level reads its partner,
// __syncwarp()s so no lane overwrites a value another lane has yet to read,
// then stores and __syncwarp()s again so the next level sees the store.
template <class R>
__device__ __forceinline__ typename R::acc_t warp_reduce_smem_last_warp(typename R::acc_t* s,
                                                                        typename R::acc_t v) {
  const unsigned tid = threadIdx.x;
  v = R::combine(v, s[tid + 32]);  // s[32..63] are read only: no hazard yet
  s[tid] = v;
  __syncwarp();
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset >>= 1) {
    const typename R::acc_t other = s[tid + offset];
    __syncwarp();
    v = R::combine(v, other);
    if (offset > 1) {
      s[tid] = v;
      __syncwarp();
    }
  }
  return v;
}

// Step 7: barriers while more than one warp is needed, then the last warp.
// blockDim.x must be a power of two >= 64.
template <class R>
__device__ __forceinline__ typename R::acc_t block_reduce_smem_last_warp(typename R::acc_t* s,
                                                                         typename R::acc_t v) {
  const unsigned tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) {
      v = R::combine(v, s[tid + stride]);
      s[tid] = v;
    }
    __syncthreads();
  }
  if (tid < 32) v = warp_reduce_smem_last_warp<R>(s, v);
  return v;
}

// Step 8: BLOCK known at compile time, every level unrolled and the levels the
// block does not have compiled out (seed 004 "kernels auto-adaptatifs").
template <class R, int BLOCK>
__device__ __forceinline__ typename R::acc_t block_reduce_smem_unrolled(typename R::acc_t* s,
                                                                        typename R::acc_t v) {
  static_assert(BLOCK >= 64 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0, "BLOCK: power of two in [64, 1024]");
  const unsigned tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  if constexpr (BLOCK >= 1024) {
    if (tid < 512) s[tid] = v = R::combine(v, s[tid + 512]);
    __syncthreads();
  }
  if constexpr (BLOCK >= 512) {
    if (tid < 256) s[tid] = v = R::combine(v, s[tid + 256]);
    __syncthreads();
  }
  if constexpr (BLOCK >= 256) {
    if (tid < 128) s[tid] = v = R::combine(v, s[tid + 128]);
    __syncthreads();
  }
  if constexpr (BLOCK >= 128) {
    if (tid < 64) s[tid] = v = R::combine(v, s[tid + 64]);
    __syncthreads();
  }
  if (tid < 32) v = warp_reduce_smem_last_warp<R>(s, v);
  return v;
}

// Step 9: each warp reduces in registers, lane 0 stores the warp's partial,
// warp 0 reduces the BLOCK / 32 partials. One barrier. `s` needs BLOCK / 32
// accumulators.
template <class R, int BLOCK, WarpShuffle S = WarpShuffle::down>
__device__ __forceinline__ typename R::acc_t block_reduce_shuffle(typename R::acc_t* s, typename R::acc_t v) {
  static_assert(BLOCK % WARP_SIZE == 0 && BLOCK / WARP_SIZE <= WARP_SIZE, "BLOCK: whole warps, at most 1024");
  constexpr unsigned WARPS = BLOCK / WARP_SIZE;
  const unsigned tid = threadIdx.x;
  const unsigned lane = tid % WARP_SIZE;
  const unsigned warp = tid / WARP_SIZE;
  v = warp_reduce_with<R, S>(v);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < WARPS ? s[lane] : R::identity();
    v = warp_reduce_with<R, S>(v);
  }
  return v;
}

}  // namespace tessera::gpu
