// 16-byte vector loads and stores of any element type whose size divides 16
// (float, int32, uint32: 4 per vector; double, int64: 2; a 16-byte struct:
// 1). One LDG.128 / STG.128 per vector: a warp moves 512 contiguous bytes per
// instruction, a quarter of the instructions of 4-byte accesses.
//
// vector_load.cuh has typed float4/double2 loads for the reduction; this one
// is untyped (uint4 + memcpy, which the compiler turns into register moves) so
// that unsigned and user-defined element types work too. Pointers must be
// 16-byte aligned. Self-contained (for include/tessera/scan.cuh).
#pragma once

#include <cstring>

namespace tessera::gpu {

template <class T>
constexpr bool vectorizable16 = sizeof(T) <= 16 && 16 % sizeof(T) == 0;

// Elements per 16-byte vector (1 for types that cannot be vectorized).
template <class T>
constexpr int VEC16_ITEMS = vectorizable16<T> ? static_cast<int>(16 / sizeof(T)) : 1;

// Cache behaviour of the vector accesses: default (L1 + L2), or streaming
// (ld.global.cs / st.global.cs: evict-first, for data touched exactly once).
enum class CacheHint { normal, streaming };

template <CacheHint H, class T>
__device__ __forceinline__ void load_vec16(const T* p, T (&out)[VEC16_ITEMS<T>]) {
  static_assert(vectorizable16<T>, "element size must divide 16");
  const uint4* q = reinterpret_cast<const uint4*>(p);
  uint4 v;
  if constexpr (H == CacheHint::streaming) v = __ldcs(q);
  else v = *q;
  memcpy(out, &v, 16);
}

template <CacheHint H, class T>
__device__ __forceinline__ void store_vec16(T* p, const T (&in)[VEC16_ITEMS<T>]) {
  static_assert(vectorizable16<T>, "element size must divide 16");
  uint4 v;
  memcpy(&v, in, 16);
  uint4* q = reinterpret_cast<uint4*>(p);
  if constexpr (H == CacheHint::streaming) __stcs(q, v);
  else *q = v;
}

}  // namespace tessera::gpu
