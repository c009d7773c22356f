// Block-wide exclusive sums of unsigned 64-bit words, the block-level step of
// the select and run-length tiles: warp shuffle scans (__shfl_up_sync, 5
// steps), one word per warp through shared memory, one barrier. WORDS
// independent sums go through the same barrier (rle scans its run heads and
// run ends together).
//
// The tiles scan SWAR words: up to four 16-bit counts packed in one 64-bit
// word (a thread's selected elements in each of its vectors), so one scan
// ranks every element of a tile. Fields cannot carry into each other as long
// as every field's block total stays below 2^16 (the callers static_assert
// BLOCK_THREADS * elements-per-vector < 2^16).
#pragma once

#include <cstdint>

namespace tessera::gpu {

template <int BLOCK, int WORDS = 1>
struct BlockSum64 {
  static_assert(BLOCK % 32 == 0 && BLOCK >= 32 && BLOCK <= 1024, "BLOCK: whole warps, at most 1024 threads");
  static_assert(WORDS >= 1 && WORDS <= 4, "WORDS: a few independent sums");
  static constexpr int WARPS = BLOCK / 32;

  struct Storage {
    unsigned long long warp_total[WORDS][WARPS];
  };

  // Every thread of the block calls this with its words v; v[w] becomes the
  // sum of word w over the threads before it, total[w] the block's sum.
  // Starts by writing `s`: a caller reusing `s` must put a barrier between the
  // previous call's return and this one.
  __device__ __forceinline__ static void exclusive(unsigned long long (&v)[WORDS], unsigned long long (&total)[WORDS],
                                                   Storage& s) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned long long inclusive[WORDS];
#pragma unroll
    for (int w = 0; w < WORDS; ++w) inclusive[w] = v[w];
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1)
#pragma unroll
      for (int w = 0; w < WORDS; ++w) {
        const unsigned long long up = __shfl_up_sync(0xffffffffu, inclusive[w], d);
        if (lane >= d) inclusive[w] += up;
      }
    if (lane == 31)
#pragma unroll
      for (int w = 0; w < WORDS; ++w) s.warp_total[w][warp] = inclusive[w];
    __syncthreads();
#pragma unroll
    for (int w = 0; w < WORDS; ++w) {
      unsigned long long before = 0, all = 0;
#pragma unroll
      for (int k = 0; k < WARPS; ++k) {
        const unsigned long long x = s.warp_total[w][k];  // a broadcast read
        before += static_cast<unsigned>(k) < warp ? x : 0ull;
        all += x;
      }
      total[w] = all;
      v[w] = before + inclusive[w] - v[w];
    }
  }

  // One word: returns the exclusive sum, sets `total`.
  __device__ __forceinline__ static unsigned long long exclusive(unsigned long long v, unsigned long long& total,
                                                                Storage& s) {
    static_assert(WORDS == 1, "the scalar form scans one word");
    unsigned long long x[1] = {v}, t[1];
    exclusive(x, t, s);
    total = t[0];
    return x[0];
  }
};

// Field k (16 bits) of a SWAR word.
__device__ __forceinline__ unsigned swar_field(unsigned long long w, int k) {
  return static_cast<unsigned>((w >> (16 * k)) & 0xFFFFull);
}

}  // namespace tessera::gpu
