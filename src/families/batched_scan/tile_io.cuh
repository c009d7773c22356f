// Moving one tile of a row between global and shared memory with 16-byte
// accesses, whatever the alignment of the row (any pitch, any base pointer).
//
// A tile covers the samples e of a row with e0 <= e < e0 + TILE, where e0 is
// chosen so that the address of sample e0 would be 16-byte aligned (e0 may be
// negative: the first tile of a row starts up to 3 samples before it). Sample
// e lives in shared slot e - e0, so a 16-byte-aligned group of 4 samples in
// global memory is a 16-byte-aligned float4 in shared memory. Of the tile,
// only the samples [lo, hi) of the row are read or written (never the
// samples between len and the pitch, never another row's).
//
// Loads are asynchronous copies (cp.async, sm_80+): the 16-byte body through
// L2 only, the at most 3 + 3 head and tail samples as 4-byte copies. They
// overlap whatever the block does next (the fused rung computes the previous
// row meanwhile; the long-row rung does its look-back); the caller commits,
// waits (__pipeline_wait_prior) and __syncthreads() before reading.
//
// Stores go through the same shared buffer: the outputs are written to slots
// matching the *output* row's alignment (shift c, 0..3, so the buffer holds
// TILE + 4 floats), then stored as float4 body + scalar head and tail.
#pragma once

#include <cuda_pipeline_primitives.h>

#include <cstdint>

namespace tessera::batched_scan_impl::gpu_detail {

// Misalignment of a float pointer in samples (0..3) within 16 bytes.
__device__ __forceinline__ int misalign4(const float* p) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) >> 2) & 3u);
}

// The samples [lo, hi) of a 16-byte-aligned split: `head` scalars from lo to
// the first aligned sample, `vectors` float4s, then the scalar tail.
struct Split {
  long long lo, head_end, body_end, hi;
};

__device__ __forceinline__ Split split_aligned(const float* row, long long lo, long long hi) {
  Split s;
  s.lo = lo;
  s.hi = hi;
  if (hi <= lo) {
    s.head_end = s.body_end = lo;
    return s;
  }
  const long long head = (4 - misalign4(row + lo)) & 3;
  s.head_end = lo + head < hi ? lo + head : hi;
  s.body_end = s.head_end + ((hi - s.head_end) / 4) * 4;
  return s;
}

// Asynchronous copy of row[lo, hi) into smem[e - e0]; all BLOCK threads call
// it. Requires (row + e0) 16-byte aligned (in address terms) and smem 16-byte
// aligned. Does not commit.
template <int BLOCK>
__device__ __forceinline__ void tile_load_async(float* smem, const float* row, long long e0, long long lo,
                                                long long hi) {
  const Split s = split_aligned(row, lo, hi);
  const int tid = static_cast<int>(threadIdx.x);
  if (tid < s.head_end - s.lo) __pipeline_memcpy_async(smem + (s.lo + tid - e0), row + (s.lo + tid), sizeof(float));
  const long long vectors = (s.body_end - s.head_end) / 4;
  for (long long v = tid; v < vectors; v += BLOCK) {
    const long long e = s.head_end + 4 * v;
    __pipeline_memcpy_async(smem + (e - e0), row + e, 4 * sizeof(float));
  }
  if (tid < s.hi - s.body_end)
    __pipeline_memcpy_async(smem + (s.body_end + tid - e0), row + (s.body_end + tid), sizeof(float));
}

// Thread t's N items are the shared slots [t * N, t * N + N): 16-byte reads.
template <int N>
__device__ __forceinline__ void read_items(const float* smem, float (&x)[N]) {
  static_assert(N % 4 == 0, "items are read as float4");
  const float4* p = reinterpret_cast<const float4*>(smem + threadIdx.x * N);
#pragma unroll
  for (int m = 0; m < N / 4; ++m) {
    const float4 q = p[m];
    x[4 * m] = q.x;
    x[4 * m + 1] = q.y;
    x[4 * m + 2] = q.z;
    x[4 * m + 3] = q.w;
  }
}

// Output staging shift: slot(e) = e - e0 + c puts the output row's aligned
// groups of 4 on aligned slots.
__device__ __forceinline__ int output_shift(const float* out_row, long long e0) {
  return static_cast<int>((misalign4(out_row) + e0) & 3);
}

// Thread t's items to slots [t * N + c, ...): float4 stores when c == 0.
template <int N>
__device__ __forceinline__ void write_items(float* smem, const float (&y)[N], int c) {
  float* base = smem + threadIdx.x * N;
  if (c == 0) {
    float4* p = reinterpret_cast<float4*>(base);
#pragma unroll
    for (int m = 0; m < N / 4; ++m) p[m] = make_float4(y[4 * m], y[4 * m + 1], y[4 * m + 2], y[4 * m + 3]);
  } else {
#pragma unroll
    for (int j = 0; j < N; ++j) base[c + j] = y[j];
  }
}

// Stores out_row[lo, hi) from smem[e - e0 + c] (after a barrier that
// published the staged outputs). STREAM: st.global.cs (evict-first: the
// outputs are not read again by this kernel, so they should not push the
// rows being prefetched out of L2).
template <int BLOCK, bool STREAM = false>
__device__ __forceinline__ void tile_store(const float* smem, float* out_row, long long e0, int c, long long lo,
                                           long long hi) {
  const Split s = split_aligned(out_row, lo, hi);
  const long long shift = c - e0;  // slot = e + shift
  const int tid = static_cast<int>(threadIdx.x);
  auto put = [](float* p, float v) {
    if constexpr (STREAM) __stcs(p, v);
    else *p = v;
  };
  if (tid < s.head_end - s.lo) put(out_row + (s.lo + tid), smem[s.lo + tid + shift]);
  const long long vectors = (s.body_end - s.head_end) / 4;
  for (long long v = tid; v < vectors; v += BLOCK) {
    const long long e = s.head_end + 4 * v;
    const float4 q = *reinterpret_cast<const float4*>(smem + (e + shift));
    if constexpr (STREAM) __stcs(reinterpret_cast<float4*>(out_row + e), q);
    else *reinterpret_cast<float4*>(out_row + e) = q;
  }
  if (tid < s.hi - s.body_end) put(out_row + (s.body_end + tid), smem[s.body_end + tid + shift]);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
