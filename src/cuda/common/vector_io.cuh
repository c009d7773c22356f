// 16-byte loads and stores (and warp shuffles) of any 1-, 4- or 8-byte
// element type (uint8, int32, uint32, float, int64, uint64, double), through
// uint4 / ulonglong2 registers and bit casts, so one code path serves every
// key type of the compositions. vector_load.cuh's load_vec16 covers the four reduction types
// with their own vector types; this adds stores and the unsigned and byte
// types.
//
// AlignedTiles views an arbitrary element pointer as 16-byte aligned tiles:
// the input is shifted by `pad` virtual elements (the elements between the
// 16-byte boundary below the pointer and the pointer), so tile b covers the
// virtual indices [b * TILE, (b + 1) * TILE) and every full tile is read with
// aligned 16-byte loads. Only the first tile (when pad > 0) and the last tile
// are partial; they are read element by element, never outside [0, n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tessera::gpu {

template <class T>
inline constexpr int VEC16 = 16 / static_cast<int>(sizeof(T));  // elements per 16-byte vector

// ---- bit casts between elements and 32/64-bit words -------------------------

template <class T>
__device__ __forceinline__ T from_word(unsigned w) {
  static_assert(sizeof(T) == 4);
  if constexpr (std::is_same_v<T, float>) return __uint_as_float(w);
  else return static_cast<T>(w);
}
template <class T>
__device__ __forceinline__ unsigned to_word(T x) {
  static_assert(sizeof(T) == 4);
  if constexpr (std::is_same_v<T, float>) return __float_as_uint(x);
  else return static_cast<unsigned>(x);
}
template <class T>
__device__ __forceinline__ T from_dword(unsigned long long w) {
  static_assert(sizeof(T) == 8);
  if constexpr (std::is_same_v<T, double>) return __longlong_as_double(static_cast<long long>(w));
  else return static_cast<T>(w);
}
template <class T>
__device__ __forceinline__ unsigned long long to_dword(T x) {
  static_assert(sizeof(T) == 8);
  if constexpr (std::is_same_v<T, double>) return static_cast<unsigned long long>(__double_as_longlong(x));
  else return static_cast<unsigned long long>(x);
}

// ---- warp shuffles of any 1-, 4- or 8-byte element ---------------------------

template <class T>
__device__ __forceinline__ T shfl_up_any(T v, unsigned delta, unsigned mask = 0xffffffffu) {
  if constexpr (sizeof(T) == 8) return from_dword<T>(__shfl_up_sync(mask, to_dword(v), delta));
  else if constexpr (sizeof(T) == 4) return from_word<T>(__shfl_up_sync(mask, to_word(v), delta));
  else return static_cast<T>(__shfl_up_sync(mask, static_cast<unsigned>(v), delta));
}
template <class T>
__device__ __forceinline__ T shfl_down_any(T v, unsigned delta, unsigned mask = 0xffffffffu) {
  if constexpr (sizeof(T) == 8) return from_dword<T>(__shfl_down_sync(mask, to_dword(v), delta));
  else if constexpr (sizeof(T) == 4) return from_word<T>(__shfl_down_sync(mask, to_word(v), delta));
  else return static_cast<T>(__shfl_down_sync(mask, static_cast<unsigned>(v), delta));
}

// ---- 16-byte load and store -------------------------------------------------

// v[0..VEC16<T>) = p[0..VEC16<T>); p 16-byte aligned.
template <class T>
__device__ __forceinline__ void load16(const T* __restrict__ p, T (&v)[VEC16<T>]) {
  if constexpr (sizeof(T) == 8) {
    const ulonglong2 r = *reinterpret_cast<const ulonglong2*>(p);
    v[0] = from_dword<T>(r.x);
    v[1] = from_dword<T>(r.y);
  } else {
    const uint4 r = *reinterpret_cast<const uint4*>(p);
    if constexpr (sizeof(T) == 4) {
      v[0] = from_word<T>(r.x);
      v[1] = from_word<T>(r.y);
      v[2] = from_word<T>(r.z);
      v[3] = from_word<T>(r.w);
    } else {
      static_assert(sizeof(T) == 1, "load16: 1-, 4- or 8-byte elements");
      const unsigned w[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
      for (int b = 0; b < 16; ++b) v[b] = static_cast<T>((w[b / 4] >> (8 * (b % 4))) & 0xFFu);
    }
  }
}

// p[0..VEC16<T>) = v; p 16-byte aligned.
template <class T>
__device__ __forceinline__ void store16(T* __restrict__ p, const T (&v)[VEC16<T>]) {
  if constexpr (sizeof(T) == 8) {
    *reinterpret_cast<ulonglong2*>(p) = make_ulonglong2(to_dword(v[0]), to_dword(v[1]));
  } else if constexpr (sizeof(T) == 4) {
    *reinterpret_cast<uint4*>(p) = make_uint4(to_word(v[0]), to_word(v[1]), to_word(v[2]), to_word(v[3]));
  } else {
    static_assert(sizeof(T) == 1, "store16: 1-, 4- or 8-byte elements");
    unsigned w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int b = 0; b < 16; ++b) w[b / 4] |= static_cast<unsigned>(static_cast<std::uint8_t>(v[b])) << (8 * (b % 4));
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// ---- 16-byte aligned tiles of an arbitrary pointer -----------------------------

struct AlignedTiles {
  std::size_t n;      // elements
  std::size_t pad;    // virtual elements before element 0 (0 when p is 16-byte aligned)
  std::size_t tile;   // elements per tile (a multiple of VEC16)
  std::size_t count;  // tiles: ceil((n + pad) / tile); 0 when n == 0

  // Tile-local slots [lo, hi) of tile b hold elements; element of slot q is
  // b * tile + q - pad.
  __host__ __device__ std::size_t lo(std::size_t b) const { return b == 0 ? pad : 0; }
  __host__ __device__ std::size_t hi(std::size_t b) const {
    const std::size_t end = n + pad - b * tile;
    return end < tile ? end : tile;
  }
  __host__ __device__ bool full(std::size_t b) const { return lo(b) == 0 && hi(b) == tile; }
  // Index of the element in slot q of tile b (may underflow for q < lo(b): check first).
  __host__ __device__ std::size_t element(std::size_t b, std::size_t q) const { return b * tile + q - pad; }
};

// A pointer not aligned to its element size (impossible for a valid T*) gets
// pad = 0 and is only ever read through the element-by-element path: callers
// check vector_ok().
template <class T>
__host__ __device__ inline AlignedTiles aligned_tiles(const T* p, std::size_t n, std::size_t tile) {
  const auto misalign = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) & 15u);
  const std::size_t pad = misalign % sizeof(T) == 0 ? misalign / sizeof(T) : 0;
  return {n, pad, tile, n == 0 ? 0 : (n + pad + tile - 1) / tile};
}

template <class T>
__host__ __device__ inline bool vector_ok(const T* p) {
  return (reinterpret_cast<std::uintptr_t>(p) % sizeof(T)) == 0;
}

// Whether `out` can take the 16-byte stores of tiles aligned for `in`: the
// same address modulo 16.
template <class T, class U>
__host__ __device__ inline bool same_alignment16(const T* in, const U* out) {
  return vector_ok(in) && vector_ok(out) &&
         (reinterpret_cast<std::uintptr_t>(out) - reinterpret_cast<std::uintptr_t>(in)) % 16 == 0;
}

// Tiles of `tile` elements n elements can need whatever the pointer's
// alignment (pad < VEC16<T>): for workspace sizes.
template <class T>
constexpr std::size_t max_aligned_tiles(std::size_t n, std::size_t tile) {
  return (n + VEC16<T> - 1 + tile - 1) / tile;
}

// ---- the striped layout of a tile ---------------------------------------------
// A tile of BLOCK threads x VECS vectors: thread t holds vectors k * BLOCK + t,
// so each warp instruction touches 512 contiguous bytes.

// Slot (tile-local index) of element j of vector k of thread t.
template <int BLOCK, int VEC>
__device__ __forceinline__ std::size_t striped_slot(int k, unsigned t, int j) {
  return (static_cast<std::size_t>(k) * BLOCK + t) * VEC + j;
}

// Stores a thread's VECS vectors of a full tile starting at `dst` (the tile's
// slot 0): 16-byte stores when `vec` (dst 16-byte aligned), element stores
// otherwise.
template <int BLOCK, int VECS, class T>
__device__ __forceinline__ void store_striped(T* __restrict__ dst, const T (&v)[VECS][VEC16<T>], bool vec) {
  constexpr int VEC = VEC16<T>;
  const unsigned t = threadIdx.x;
#pragma unroll
  for (int k = 0; k < VECS; ++k) {
    const std::size_t q = striped_slot<BLOCK, VEC>(k, t, 0);
    if (vec) {
      store16(dst + q, v[k]);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) dst[q + j] = v[k][j];
    }
  }
}

// f(i) for every element i this thread owns in tile b (the element-by-element
// path of first and last tiles: slots [lo, hi) only).
template <int BLOCK, int VECS, int VEC, class F>
__device__ __forceinline__ void for_each_tile_element(const AlignedTiles& tiles, std::size_t b, F&& f) {
  const std::size_t lo = tiles.lo(b), hi = tiles.hi(b);
#pragma unroll
  for (int k = 0; k < VECS; ++k)
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const std::size_t q = striped_slot<BLOCK, VEC>(k, threadIdx.x, j);
      if (q >= lo && q < hi) f(tiles.element(b, q));
    }
}

}  // namespace tessera::gpu
