// Striped, 16-byte-aligned tiles over an arbitrary element pointer: the tile
// geometry of the map, adjacent-difference, select, run-length and flag-table
// kernels. The 16-byte accesses themselves are vector16.cuh's
// (load_vec16 / store_vec16, any 1-, 4- or 8-byte element type).
//
// AlignedTiles views the input as shifted by `pad` virtual elements (the
// elements between the 16-byte boundary below the pointer and the pointer),
// so tile b covers the virtual indices [b * TILE, (b + 1) * TILE) and every
// full tile is read with aligned 16-byte loads. Only the first tile (when
// pad > 0) and the last tile are partial; they are read element by element,
// never outside [0, n).
//
// Striped layout: a tile of BLOCK threads x VECS vectors, thread t holding
// vectors k * BLOCK + t, so each warp instruction touches 512 contiguous bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/blocks/vector16.cuh"

namespace tessera::gpu {

template <class T>
inline constexpr int VEC16 = VEC16_ITEMS<T>;  // elements per 16-byte vector

struct AlignedTiles {
  std::size_t n;      // elements
  std::size_t pad;    // virtual elements before element 0 (0 when the pointer is 16-byte aligned)
  std::size_t tile;   // elements per tile (a multiple of VEC16)
  std::size_t count;  // tiles: ceil((n + pad) / tile); 0 when n == 0

  // Tile-local slots [lo, hi) of tile b hold elements; the element of slot q
  // is b * tile + q - pad.
  __host__ __device__ std::size_t lo(std::size_t b) const { return b == 0 ? pad : 0; }
  __host__ __device__ std::size_t hi(std::size_t b) const {
    const std::size_t end = n + pad - b * tile;
    return end < tile ? end : tile;
  }
  __host__ __device__ bool full(std::size_t b) const { return lo(b) == 0 && hi(b) == tile; }
  // Index of the element in slot q of tile b (check q >= lo(b) first).
  __host__ __device__ std::size_t element(std::size_t b, std::size_t q) const { return b * tile + q - pad; }
};

// A pointer not aligned to its element size (impossible for a valid T*) gets
// pad = 0 and must only be read element by element: callers check vector_ok().
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

// ---- the striped layout ----------------------------------------------------------

// Slot (tile-local index) of element j of vector k of thread t.
template <int BLOCK, int VEC>
__host__ __device__ __forceinline__ std::size_t striped_slot(int k, unsigned t, int j) {
  return (static_cast<std::size_t>(k) * BLOCK + t) * VEC + j;
}

// Loads a thread's VECS vectors of a full tile whose slot 0 is at `src`
// (16-byte aligned).
template <int BLOCK, int VECS, class T>
__device__ __forceinline__ void load_striped(const T* src, T (&v)[VECS][VEC16<T>]) {
#pragma unroll
  for (int k = 0; k < VECS; ++k) load_vec16<CacheHint::normal>(src + striped_slot<BLOCK, VEC16<T>>(k, threadIdx.x, 0), v[k]);
}

// Stores a thread's VECS vectors of a full tile whose slot 0 is at `dst`:
// 16-byte stores when `vec` (dst 16-byte aligned), element stores otherwise.
template <int BLOCK, int VECS, class T>
__device__ __forceinline__ void store_striped(T* dst, const T (&v)[VECS][VEC16<T>], bool vec) {
  constexpr int VEC = VEC16<T>;
#pragma unroll
  for (int k = 0; k < VECS; ++k) {
    const std::size_t q = striped_slot<BLOCK, VEC>(k, threadIdx.x, 0);
    if (vec) {
      store_vec16<CacheHint::normal>(dst + q, v[k]);
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
