// Counting with one block scan: SWAR words and the sum functors the
// composition tiles hand to the shared scan building blocks
// (block_scan.cuh's block_exclusive_scan, lookback.cuh's warp_lookback; the
// ScanFn contract of warp_scan.cuh).
//
// A thread packs its counts per vector (selected elements, run heads, run
// ends) into a 64-bit word, four 16-bit fields; one block exclusive sum of
// those words ranks every element of a tile in element order. Fields cannot
// carry into each other as long as every field's block total stays below
// 2^16: the tiles static_assert BLOCK_THREADS * elements-per-vector < 2^16.
#pragma once

#include <cstdint>

namespace tessera::gpu {

inline constexpr int SWAR_FIELDS = 4;  // 16-bit fields in a 64-bit word

// Field k of a SWAR word.
__host__ __device__ __forceinline__ unsigned swar_field(unsigned long long w, int k) {
  return static_cast<unsigned>((w >> (16 * k)) & 0xFFFFull);
}

// Adds `count` (< 2^16) into field k.
__host__ __device__ __forceinline__ unsigned long long swar_put(int k, unsigned count) {
  return static_cast<unsigned long long>(count) << (16 * k);
}

// Sum of the fields (the tile's total count).
__host__ __device__ __forceinline__ unsigned swar_total(unsigned long long w) {
  unsigned t = 0;
#pragma unroll
  for (int k = 0; k < SWAR_FIELDS; ++k) t += swar_field(w, k);
  return t;
}

// 64-bit sum: SWAR words in block scans, element counts in look-backs.
struct SumU64 {
  using acc_t = unsigned long long;
  __device__ __forceinline__ acc_t identity() const { return 0ull; }
  __device__ __forceinline__ acc_t combine(acc_t left, acc_t right) const { return left + right; }
};

// WORDS independent 64-bit sums in one scan (rle: run heads and run ends).
template <int WORDS>
struct SumU64s {
  struct acc_t {
    unsigned long long w[WORDS];
  };
  __device__ __forceinline__ acc_t identity() const {
    acc_t a;
#pragma unroll
    for (int i = 0; i < WORDS; ++i) a.w[i] = 0ull;
    return a;
  }
  __device__ __forceinline__ acc_t combine(acc_t left, const acc_t& right) const {
#pragma unroll
    for (int i = 0; i < WORDS; ++i) left.w[i] += right.w[i];
    return left;
  }
};

}  // namespace tessera::gpu
