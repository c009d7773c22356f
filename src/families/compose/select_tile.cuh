// One tile of a selection (compact, partition, unique), shared by the
// two-pass and single-pass rungs: load the tile, decide which elements are
// selected, rank them with one block scan, stage them in shared memory in
// output order, and write them out with coalesced stores once the tile's
// offset is known.
//
// Layout. A tile is BLOCK_THREADS x VECS 16-byte vectors, striped: thread t
// holds vectors k * BLOCK_THREADS + t (k < VECS), so each warp load reads 512
// contiguous bytes. Tiles are 16-byte aligned whatever the input pointer
// (gpu::AlignedTiles); the first and last tile are read element by element.
//
// Ranking. Each thread packs its selected counts per vector into one 64-bit
// SWAR word (16 bits per vector, swar.cuh); one block exclusive sum of those
// words (block_scan.cuh) ranks every element of the tile in element order:
//   rank(k, t, j) = sum_{k' < k} total_k' + exclusive_k(t) + selected before j
//
// Partition. Rejected elements are staged from the end of the tile's shared
// array backwards, so the staged tile is [selected in order | rejected in
// reverse order] and maps onto two contiguous output ranges: selected at
// prefix + s, rejected at n - valid + ... (see write()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "families/compose/ops.hpp"
#include "tessera/blocks/aligned_tiles.cuh"
#include "tessera/blocks/block_scan.cuh"
#include "tessera/blocks/warp_scan.cuh"
#include "families/compose/swar.cuh"

namespace tessera::gpu {

using compose_impl::differs;
using compose_impl::passes;

enum class SelectMode { predicate, flagged, unique };

template <class T>
struct SelectParams {
  Pred pred;    // SelectMode::predicate
  T threshold;  // Pred::greater
};

// Tuning (provenance: the reduce single_pass sweep on H100 found 256 threads x
// 4 vectors of 16 bytes in flight per thread best for streaming reads, and the
// scan's primary look-back policy is 256 x 4 with 4 predecessors per lane; the
// GPU run checks them here). 4096 4-byte elements = a 16 KiB tile.
struct SelectPolicy {
  static constexpr int BLOCK_THREADS = 256;
  static constexpr int VECS = 4;
  static constexpr int LOOKBACK_PER_LANE = 4;  // 128 predecessors per look-back round trip
};

// One element stored with st.global.cs (evict-first), for 4- and 8-byte keys.
template <class T>
__device__ __forceinline__ void store_streaming(T* p, const T& v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte keys");
  if constexpr (sizeof(T) == 4) {
    unsigned u;
    memcpy(&u, &v, 4);
    __stcs(reinterpret_cast<unsigned*>(p), u);
  } else {
    unsigned long long u;
    memcpy(&u, &v, 8);
    __stcs(reinterpret_cast<unsigned long long*>(p), u);
  }
}

template <class T, SelectMode MODE, bool PARTITION, class Policy = SelectPolicy>
struct SelectTile {
  static constexpr int BLOCK = Policy::BLOCK_THREADS;
  static constexpr int VECS = Policy::VECS;
  static constexpr int VEC = VEC16<T>;
  static constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK) * VECS * VEC;
  static_assert(VECS >= 1 && VECS <= SWAR_FIELDS, "VECS: one SWAR field per vector");
  static_assert(BLOCK * VEC < (1 << 16), "a SWAR field counts up to BLOCK * VEC elements in 16 bits");
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "select tiles: 4- or 8-byte keys");

  struct Storage {
    alignas(16) T items[TILE + VEC];  // the staged tile, in output order (+ VEC: write_vectors reads whole vectors)
    unsigned long long warp_totals[BLOCK / 32];
  };

  // What one tile holds after load() and rank().
  T x[VECS][VEC];
  unsigned selected[VECS];      // bit j: element j of vector k is selected
  unsigned valid[VECS];         // bit j: slot holds an element (all set in full tiles)
  unsigned long long exclusive;  // SWAR: selected before this thread, per vector
  unsigned long long total;      // SWAR: selected in the tile, per vector
  unsigned count;                // selected in the tile

  // Bit j set when element j passes the predicate; the run-time predicate is
  // switched on once per vector, not per element.
  __device__ __forceinline__ static unsigned passing_mask(const SelectParams<T>& p, const T (&v)[VEC]) {
    unsigned m = 0;
    switch (p.pred) {
      case Pred::greater:
#pragma unroll
        for (int j = 0; j < VEC; ++j) m |= passes(Pred::greater, v[j], p.threshold) ? 1u << j : 0u;
        break;
      case Pred::nonzero:
#pragma unroll
        for (int j = 0; j < VEC; ++j) m |= passes(Pred::nonzero, v[j], p.threshold) ? 1u << j : 0u;
        break;
      case Pred::even:
#pragma unroll
        for (int j = 0; j < VEC; ++j) m |= passes(Pred::even, v[j], p.threshold) ? 1u << j : 0u;
        break;
    }
    return m;
  }

  // Slot (tile-local index) of element j of vector k of thread t.
  __device__ __forceinline__ static std::size_t slot(int k, unsigned t, int j) {
    return striped_slot<BLOCK, VEC>(k, t, j);
  }

  // Loads tile b and evaluates the selection. `full` (block-uniform) takes the
  // aligned vector path; flags are loaded as VEC-byte words when `vec_flags`.
  __device__ __forceinline__ void load(const T* __restrict__ in, const std::uint8_t* __restrict__ flags,
                                       const SelectParams<T>& p, const AlignedTiles& tiles, std::size_t b, bool full,
                                       bool vec_flags) {
    const unsigned t = threadIdx.x;
    if (full) {
      load_striped<BLOCK, VECS>(in - tiles.pad + b * tiles.tile, x);  // 16-byte aligned
      // The element before each vector: the previous lane's last element, or,
      // for lane 0, one load (the neighbouring warp's line, cached).
      T halo[VECS] = {};
      if constexpr (MODE == SelectMode::unique) {
#pragma unroll
        for (int k = 0; k < VECS; ++k) {
          const std::size_t first = tiles.element(b, slot(k, t, 0));
          halo[k] = t % 32 == 0 && first > 0 ? in[first - 1] : T(0);
        }
      }
      select_full(flags, p, tiles, b, vec_flags, halo);
      return;
    }
    // First or last tile: element by element, only the slots [lo, hi).
    const std::size_t lo = tiles.lo(b), hi = tiles.hi(b);
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      unsigned m = 0, v = 0;
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const std::size_t q = slot(k, t, j);
        x[k][j] = T(0);
        if (q < lo || q >= hi) continue;
        const std::size_t i = tiles.element(b, q);
        x[k][j] = in[i];
        v |= 1u << j;
        bool s;
        if constexpr (MODE == SelectMode::predicate) s = passes(p.pred, x[k][j], p.threshold);
        else if constexpr (MODE == SelectMode::flagged) s = flags[i] != 0;
        else s = i == 0 || differs(in[i - 1], x[k][j]);
        m |= s ? 1u << j : 0u;
      }
      selected[k] = m;
      valid[k] = v;
    }
  }

  // load()'s full-tile path for a tile already copied to shared memory:
  // `staged` is its slot 0 (16-byte aligned). Conflict-free 16-byte reads
  // (a warp reads 512 contiguous bytes per vector). `before`: the element
  // before the tile (unique; any value when the tile starts the input).
  __device__ __forceinline__ void load_shared(const T* staged, T before, const std::uint8_t* __restrict__ flags,
                                              const SelectParams<T>& p, const AlignedTiles& tiles, std::size_t b,
                                              bool vec_flags) {
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      const uint4 q = *reinterpret_cast<const uint4*>(staged + slot(k, threadIdx.x, 0));
      memcpy(x[k], &q, sizeof(q));
    }
    T halo[VECS] = {};
    if constexpr (MODE == SelectMode::unique) {
#pragma unroll
      for (int k = 0; k < VECS; ++k) {
        const std::size_t q = slot(k, threadIdx.x, 0);
        if (threadIdx.x % 32 == 0) halo[k] = q > 0 ? staged[q - 1] : before;  // used by lane 0 only
      }
    }
    select_full(flags, p, tiles, b, vec_flags, halo);
  }

  // Which elements of a full tile (x loaded) are selected; halo[k]: the
  // element before vector k of lane 0 (unique).
  __device__ __forceinline__ void select_full(const std::uint8_t* __restrict__ flags, const SelectParams<T>& p,
                                              const AlignedTiles& tiles, std::size_t b, bool vec_flags,
                                              const T (&halo)[VECS]) {
    const unsigned t = threadIdx.x, lane = t % 32;
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      valid[k] = (1u << VEC) - 1;
      unsigned m = 0;
      if constexpr (MODE == SelectMode::predicate) {
        m = passing_mask(p, x[k]);
      } else if constexpr (MODE == SelectMode::flagged) {
        const std::size_t first = tiles.element(b, slot(k, t, 0));
        if (vec_flags) {
          unsigned word;
          if constexpr (VEC == 4) word = *reinterpret_cast<const unsigned*>(flags + first);
          else word = *reinterpret_cast<const unsigned short*>(flags + first);
#pragma unroll
          for (int j = 0; j < VEC; ++j) m |= ((word >> (8 * j)) & 0xFFu) != 0 ? 1u << j : 0u;
        } else {
#pragma unroll
          for (int j = 0; j < VEC; ++j) m |= flags[first + j] != 0 ? 1u << j : 0u;
        }
      } else {  // unique: x != its left neighbour (element 0 always starts a run)
        T left = shfl_up_any(x[k][VEC - 1], 1);
        if (lane == 0) left = halo[k];
        const std::size_t first = tiles.element(b, slot(k, t, 0));
        m |= first == 0 || differs(left, x[k][0]) ? 1u : 0u;
#pragma unroll
        for (int j = 1; j < VEC; ++j) m |= differs(x[k][j - 1], x[k][j]) ? 1u << j : 0u;
      }
      selected[k] = m;
    }
  }

  // Ranks the selected elements (one block scan; a barrier inside).
  __device__ __forceinline__ void rank(Storage& s) {
    unsigned long long word = 0;
#pragma unroll
    for (int k = 0; k < VECS; ++k) word |= swar_put(k, __popc(selected[k]));
    exclusive = block_exclusive_scan<BLOCK>(word, SumU64{}, s.warp_totals, total);
    count = swar_total(total);
  }

  // Number of elements in tile b (partition needs it; block-uniform).
  __device__ __forceinline__ static unsigned elements_in(const AlignedTiles& tiles, std::size_t b) {
    return static_cast<unsigned>(tiles.hi(b) - tiles.lo(b));
  }

  // Stages the tile in shared memory in output order: selected elements at
  // their rank; for partitions, rejected ones from the end backwards. The
  // caller puts a barrier between this and write().
  __device__ __forceinline__ void stage(Storage& s, const AlignedTiles& tiles, std::size_t b) {
    const unsigned t = threadIdx.x;
    const std::size_t lo = tiles.lo(b);
    const unsigned elements = elements_in(tiles, b);
    unsigned before = 0;  // selected in vectors k' < k of the whole tile
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      unsigned r = before + swar_field(exclusive, k);
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        if (selected[k] & (1u << j)) {
          s.items[r++] = x[k][j];
        } else if (PARTITION && (valid[k] & (1u << j))) {
          // Rejected before this element = elements before it - selected before it.
          const unsigned rejected_before = static_cast<unsigned>(slot(k, t, j) - lo) - r;
          s.items[elements - 1 - rejected_before] = x[k][j];
        }
      }
      before += swar_field(total, k);
    }
  }

  // Writes a compaction's staged tile (items[0, count)) to out[prefix ...]
  // as whole aligned 16-byte vectors with streaming stores (a quarter of
  // write()'s store instructions; the partial vectors at the ends element by
  // element). Output vector v holds staged items [v * VEC - shift, + VEC),
  // shift = out[prefix]'s place in its vector: thread v reads the aligned
  // staged vector v (conflict-free), takes vector v - 1 from the lane below
  // and splices the two. Every thread of the block calls it.
  __device__ __forceinline__ void write_vectors(const Storage& s, T* __restrict__ out,
                                                unsigned long long prefix) const {
    static_assert(!PARTITION, "compaction only");
    using V = uint4;
    constexpr unsigned W = VEC;  // elements per vector
    const unsigned shift = static_cast<unsigned>((reinterpret_cast<std::uintptr_t>(out) / sizeof(T) + prefix) % W);
    const unsigned vectors = (shift + count + W - 1) / W;
    const unsigned lane = threadIdx.x % 32;
    for (unsigned base = 0; base < vectors; base += BLOCK) {  // block-uniform trip count: whole warps shuffle
      const unsigned v = base + threadIdx.x;
      V c = make_uint4(0u, 0u, 0u, 0u);
      if (v < vectors) c = *reinterpret_cast<const V*>(s.items + v * W);  // v * W < count + W <= TILE + W
      V pw;
      pw.x = __shfl_up_sync(0xFFFFFFFFu, c.x, 1);
      pw.y = __shfl_up_sync(0xFFFFFFFFu, c.y, 1);
      pw.z = __shfl_up_sync(0xFFFFFFFFu, c.z, 1);
      pw.w = __shfl_up_sync(0xFFFFFFFFu, c.w, 1);
      if (v >= vectors) continue;
      if (lane == 0 && v > 0) pw = *reinterpret_cast<const V*>(s.items + (v - 1) * W);
      T cur[W], prev[W], o[W];
      memcpy(cur, &c, sizeof(V));
      memcpy(prev, &pw, sizeof(V));
#pragma unroll
      for (unsigned j = 0; j < W; ++j) o[j] = cur[j];  // shift 0
#pragma unroll
      for (unsigned k = 1; k < W; ++k) {
        if (shift == k) {  // block-uniform
#pragma unroll
          for (unsigned j = 0; j < W; ++j) o[j] = j < k ? prev[W - k + j] : cur[j - k];
        }
      }
      const long long first = static_cast<long long>(v * W) - shift;  // staged position of o[0]
      if (first >= 0 && first + W <= count) {
        V w;
        memcpy(&w, o, sizeof(V));
        __stcs(reinterpret_cast<V*>(out + (prefix + static_cast<unsigned long long>(first))), w);
      } else {
#pragma unroll
        for (unsigned j = 0; j < W; ++j) {
          const long long p = first + j;
          if (p >= 0 && p < count) store_streaming(out + (prefix + static_cast<unsigned long long>(p)), o[j]);
        }
      }
    }
  }

  // Writes the staged tile: selected elements to out[prefix ...]; for
  // partitions, rejected ones to their reversed places at the end of out.
  // `prefix`: elements selected before the tile; n: the input's length.
  __device__ __forceinline__ void write(const Storage& s, T* __restrict__ out, const AlignedTiles& tiles,
                                        std::size_t b, unsigned long long prefix) const {
    const unsigned t = threadIdx.x;
    if constexpr (!PARTITION) {
      for (unsigned i = t; i < count; i += BLOCK) out[prefix + i] = s.items[i];
    } else {
      const unsigned elements = elements_in(tiles, b);
      const std::size_t first = tiles.element(b, tiles.lo(b));   // the tile's first element
      const std::size_t rejected_prefix = first - prefix;        // rejected before the tile
      for (unsigned i = t; i < elements; i += BLOCK) {
        if (i < count) {
          out[prefix + i] = s.items[i];
        } else {
          // Staged slot i holds the tile's rejected element number
          // elements - 1 - i, whose global rejected rank goes to n - 1 - rank.
          out[tiles.n - 1 - (rejected_prefix + (elements - 1 - i))] = s.items[i];
        }
      }
    }
  }
};

}  // namespace tessera::gpu
