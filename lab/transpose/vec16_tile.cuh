// The 16-byte swizzled tile of the lab's vec16 rows (07_vec16_swizzle.cu explains
// the layout and why it has no bank conflicts), as the three phases of one
// tile transpose, shared by the one-tile-per-block kernel
// (07_vec16_swizzle.cu) and the persistent one (07_vec16_persistent.cu):
//   load_chunks   PER_THREAD 16-byte global loads of an interior tile into
//                 registers (all issued before any is used);
//   stash_chunks  those registers into the swizzled shared tile;
//   write_chunks  the shared tile, transposed, as 16-byte global stores;
// and the element-by-element pair for edge tiles (load_edge, write_edge).
// A __syncthreads() separates stash/load_edge from write_chunks/write_edge;
// the caller places it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "tessera/blocks/vector16.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl::gpu {

using tessera::gpu::CacheHint;

template <class W>
struct Vec16Tile {
  static constexpr int V = 16 / static_cast<int>(sizeof(W));   // words per 16-byte chunk
  static constexpr int TR = sizeof(W) == 4 ? 64 : 32;          // input rows per tile: 16 chunks per output row
  static constexpr int TC = 64;                                // input columns per tile
  static constexpr int THREADS = 256;                          // 8 blocks x 16 KiB fill 128 KiB of an SM
  static constexpr int CHUNKS_PER_IN_ROW = TC / V;
  static constexpr int CHUNKS_PER_OUT_ROW = TR / V;
  static constexpr int CHUNKS = TR * TC / V;
  static constexpr int PER_THREAD = CHUNKS / THREADS;          // 16-byte loads in flight per thread
  static constexpr int SWIZZLE = 8;                            // chunk positions per 128 bytes
  static_assert(CHUNKS_PER_IN_ROW % SWIZZLE == 0, "the XOR must stay inside aligned groups of 8 chunks");
  static_assert(CHUNKS_PER_OUT_ROW % SWIZZLE == 0, "a warp's store needs 8 chunks per output row");
  static_assert((TC * sizeof(W)) % 128 == 0, "tile rows must start on a 128-byte bank boundary");
  static_assert(CHUNKS % THREADS == 0 && THREADS % 32 == 0, "whole chunks per thread, whole warps");
  static_assert(TC % 4 == 0, "a warp's 4 output rows must share one chunk column group");
};

template <class W>
using Chunk = typename tessera::gpu::Vec16<W>::type;  // int4 or longlong2

// Word index of element (r, c) in the swizzled tile.
template <class W>
__device__ __forceinline__ int swizzled(int r, int c) {
  using T = Vec16Tile<W>;
  return r * T::TC + (((c / T::V) ^ ((r / T::V) % T::SWIZZLE)) * T::V) + c % T::V;
}

template <class W>
__device__ __forceinline__ Chunk<W> pack(const W (&w)[Vec16Tile<W>::V]) {
  if constexpr (Vec16Tile<W>::V == 4) return make_int4(w[0], w[1], w[2], w[3]);
  else return make_longlong2(w[0], w[1]);
}

// One 16-byte shared-memory store. (nvcc 13.0 split the plain assignment
// `*reinterpret_cast<int4*>(p) = v` into four 4-byte stores here, for some
// of the unrolled iterations: four wavefronts where one is enough.)
__device__ __forceinline__ void store_shared16(void* p, int4 v) {
  const auto a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
__device__ __forceinline__ void store_shared16(void* p, longlong2 v) {
  const auto a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("st.shared.v2.b64 [%0], {%1, %2};" ::"r"(a), "l"(v.x), "l"(v.y) : "memory");
}

// One 16-byte global load / store with cache hint H: normal (the default
// policy; the store as __stwb, st.global.wb: a plain assignment was split
// like the shared store above) or streaming (ld.global.cs / st.global.cs,
// evict-first: every byte of a transpose is touched once).
template <CacheHint H, class W>
__device__ __forceinline__ Chunk<W> load_chunk(const W* p) {
  const auto* q = reinterpret_cast<const Chunk<W>*>(p);
  if constexpr (H == CacheHint::streaming) return __ldcs(q);
  else return *q;
}
template <CacheHint H, class W>
__device__ __forceinline__ void store_chunk(W* p, Chunk<W> v) {
  auto* q = reinterpret_cast<Chunk<W>*>(p);
  if constexpr (H == CacheHint::streaming) __stcs(q, v);
  else __stwb(q, v);
}

// Interior tile at (row0, col0): thread q (of THREADS) reads chunk q %
// (TC/V) of tile row q / (TC/V), PER_THREAD times THREADS apart; a warp reads
// whole lines.
template <CacheHint H, class W>
__device__ __forceinline__ void load_chunks(const W* __restrict__ in, const Grid2D& g, std::size_t row0,
                                            std::size_t col0, int tid, Chunk<W> (&v)[Vec16Tile<W>::PER_THREAD]) {
  using T = Vec16Tile<W>;
#pragma unroll
  for (int k = 0; k < T::PER_THREAD; ++k) {
    const int q = tid + k * T::THREADS;
    const int r = q / T::CHUNKS_PER_IN_ROW, c = q % T::CHUNKS_PER_IN_ROW;
    v[k] = load_chunk<H>(in + (row0 + r) * g.ld_in + col0 + c * T::V);
  }
}

// The chunks of load_chunks into the tile, chunk c of row r at c ^ ((r / V)
// % 8): the XOR only permutes aligned groups of 8 chunks, no conflict.
template <class W>
__device__ __forceinline__ void stash_chunks(W* tile, int tid, const Chunk<W> (&v)[Vec16Tile<W>::PER_THREAD]) {
  using T = Vec16Tile<W>;
#pragma unroll
  for (int k = 0; k < T::PER_THREAD; ++k) {
    const int q = tid + k * T::THREADS;
    const int r = q / T::CHUNKS_PER_IN_ROW, c = q % T::CHUNKS_PER_IN_ROW;
    store_shared16(&tile[r * T::TC + (c ^ ((r / T::V) % T::SWIZZLE)) * T::V], v[k]);
  }
}

// The tile, transposed, to the interior output tile: output row b (an input
// column), chunk rv (V consecutive input rows); lanes take rv_lo = lane % 8
// and 4 consecutive b, each gathers V words from 8 distinct bank groups and
// writes one 16-byte chunk; a warp writes 4 output rows x 128 bytes.
template <CacheHint H, class W>
__device__ __forceinline__ void write_chunks(const W* tile, W* __restrict__ out, const Grid2D& g, std::size_t row0,
                                             std::size_t col0, int tid) {
  using T = Vec16Tile<W>;
#pragma unroll
  for (int k = 0; k < T::PER_THREAD; ++k) {
    const int q = tid + k * T::THREADS;
    const int rv_lo = q % T::SWIZZLE, rest = q / T::SWIZZLE;
    const int b = rest % T::TC;                          // output row in the tile (an input column)
    const int rv = (rest / T::TC) * T::SWIZZLE + rv_lo;  // output chunk in that row
    W w[T::V];
#pragma unroll
    for (int e = 0; e < T::V; ++e) w[e] = tile[swizzled<W>(rv * T::V + e, b)];
    store_chunk<H>(out + (col0 + b) * g.ld_out + row0 + rv * T::V, pack<W>(w));
  }
}

// Edge tile (partly outside the matrix): element by element through the
// same layout, every access guarded.
template <class W>
__device__ __forceinline__ void load_edge(const W* __restrict__ in, W* tile, const Grid2D& g, std::size_t row0,
                                          std::size_t col0, int tid) {
  using T = Vec16Tile<W>;
  for (int e = tid; e < T::TR * T::TC; e += T::THREADS) {
    const int r = e / T::TC, c = e % T::TC;
    if (row0 + r < g.rows && col0 + c < g.cols) tile[swizzled<W>(r, c)] = in[(row0 + r) * g.ld_in + col0 + c];
  }
}
template <class W>
__device__ __forceinline__ void write_edge(const W* tile, W* __restrict__ out, const Grid2D& g, std::size_t row0,
                                           std::size_t col0, int tid) {
  using T = Vec16Tile<W>;
  for (int e = tid; e < T::TR * T::TC; e += T::THREADS) {
    const int b = e / T::TR, a = e % T::TR;
    if (col0 + b < g.cols && row0 + a < g.rows) out[(col0 + b) * g.ld_out + row0 + a] = tile[swizzled<W>(a, b)];
  }
}

// Whether a tile at (row0, col0) lies wholly inside the matrix.
template <class W>
__device__ __forceinline__ bool interior(const Grid2D& g, std::size_t row0, std::size_t col0) {
  return row0 + Vec16Tile<W>::TR <= g.rows && col0 + Vec16Tile<W>::TC <= g.cols;
}

}  // namespace tessera::transpose_impl::gpu
