// tessera's single-pass scan kernel (step 9): one tile per block, 16-byte
// vector loads and stores, several vectors per thread, decoupled look-back
// between tiles (lookback.cuh). Generic over the scan functor F, so the
// ladder's variant (src/families/scan/09_lookback.cu), the internal exclusive
// sum other patterns call (src/families/scan/exclusive_sum.cu) and the
// public user-operator entry (include/tessera/scan.cuh) are this one kernel.
//
// The functor F: the ScanFn contract of warp_scan.cuh plus the element side:
//   using in_t, acc_t, out_t;           // out_t == in_t
//   acc_t identity() const; acc_t combine(acc_t left, acc_t right) const;
//   acc_t lift(in_t) const;             // one element as a state
//   out_t output(acc_t) const;          // a state written as an element
//
// Data layout of a tile (THREADS x VECTORS vectors of VEC = 16 / sizeof(in_t)
// elements): warp w owns the contiguous stretch [w * WARP_ITEMS, (w + 1) *
// WARP_ITEMS) of the tile, and within it vector k of lane l holds elements
// (k * 32 + l) * VEC + [0, VEC). Each vector instruction of a warp therefore
// moves 512 contiguous bytes, and each "row" k of a warp is 32 * VEC
// consecutive elements: a thread folds its VEC elements serially, a shuffle
// scan per row gives the lanes their prefixes, and the rows chain through
// their totals. No shared-memory transpose: the data never leaves registers.
//
// Per tile: take a tile index (atomic counter) -> load (vector path for full
// tiles when the pointers allow it, bounds-checked scalar path otherwise) ->
// fold -> row scans -> warp totals through shared memory (barrier) -> warp 0:
// publish the tile aggregate, look back, publish the inclusive prefix; the
// other warps compute their prefix within the tile meanwhile (barrier) ->
// every element = output(tile prefix . warp prefix . row prefix . own state)
// -> store. Two barriers and one tile-index barrier per tile.
//
// Alignment: tiles are laid on 16-byte boundaries of the input: tile 0 starts
// `shift` elements before `in` (shift < VEC, those slots are skipped), so any
// element pointer gets vector loads for every full tile. Stores are vectors
// when `out` has the same offset within 16 bytes (always for in-place scans),
// scalar otherwise.
//
// Self-contained (relative includes) for include/tessera/scan.cuh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/block_scan.cuh"
#include "tessera/blocks/lookback.cuh"
#include "tessera/blocks/vector16.cuh"

namespace tessera::gpu {

// Tuning of the look-back kernel. LookbackDefaultPolicy below is the shape
// every product caller runs; the tuned alternatives and what the H100 said
// of each are in lab/scan/tuning_lookback.cuh.
template <int THREADS_, int VECTORS_, int LOOKBACK_PER_LANE_, int MIN_BLOCKS_, CacheHint HINT_ = CacheHint::normal,
          unsigned MAX_SLEEP_NS_ = LOOKBACK_MAX_SLEEP_NS>
struct LookbackPolicy {
  static constexpr int THREADS = THREADS_;                      // threads per block
  static constexpr int VECTORS = VECTORS_;                      // 16-byte vectors per thread per tile
  static constexpr int LOOKBACK_PER_LANE = LOOKBACK_PER_LANE_;  // predecessors per lane per look-back round
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;                // __launch_bounds__ blocks per SM (register cap)
  static constexpr CacheHint HINT = HINT_;                      // cache hint of the data accesses
  static constexpr unsigned MAX_SLEEP_NS = MAX_SLEEP_NS_;       // look-back back-off cap (0: spin)
  static_assert(valid_scan_block<THREADS>, "THREADS: whole warps, at most 1024");
  static_assert(VECTORS >= 1 && VECTORS <= 16, "VECTORS: 1..16 vectors per thread");
  static_assert(LOOKBACK_PER_LANE >= 1 && LOOKBACK_PER_LANE <= 8, "LOOKBACK_PER_LANE: 1..8");
  static_assert(MIN_BLOCKS >= 1 && MIN_BLOCKS * THREADS <= 2048, "MIN_BLOCKS: resident blocks an sm_90 SM can hold");
  static_assert(MAX_SLEEP_NS <= 1000000, "MAX_SLEEP_NS: __nanosleep takes at most 1 ms");
};

// What the scan ladder's `lookback` row, the internal exclusive sum and
// tessera::scan_with run: 256 threads x 4 vectors = 16 floats (8 doubles) per
// thread, 16 KiB tiles; 4 status slots per lane, so one look-back round trip
// covers 128 predecessors; MIN_BLOCKS 4: at most 64 registers, 1024 threads
// and 64 KiB of loads in flight per SM. Any element type (wider accumulator
// states included) fits it. H100, float sum 2^28: 55% of copy
// (docs/results/scan-ladder-h100-2026-11-23.txt); the 4-byte native scans the
// public API runs on the warp-specialised kernel instead (92%).
using LookbackDefaultPolicy = LookbackPolicy<256, 4, 4, 4>;

// Where the tiles lie for one call (computed on the host from the pointers).
struct ScanLayout {
  std::size_t n;
  unsigned tiles;
  unsigned shift;  // slots of tile 0 before `in` (16-byte alignment of the tiles)
  bool vec_in;     // full tiles may use 16-byte loads
  bool vec_out;    // ... and 16-byte stores
  bool exclusive;
};

template <class P, class F>
struct LookbackScan {
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  using out_t = typename F::out_t;
  static_assert(std::is_same_v<in_t, out_t>, "the look-back kernel writes elements of the input type");

  static constexpr int VEC = VEC16_ITEMS<in_t>;
  static constexpr int ITEMS = P::VECTORS * VEC;  // elements per thread
  static constexpr int WARP_ITEMS = 32 * ITEMS;
  static constexpr std::size_t TILE_ITEMS = static_cast<std::size_t>(P::THREADS) * ITEMS;
  static constexpr std::size_t COUNTER_BYTES = 256;  // the tile counter, then the status slots (16-byte aligned)

  // Tiles for n elements whatever the pointer alignment (shift < VEC).
  static constexpr std::size_t max_tiles(std::size_t n) { return (n + VEC - 1 + TILE_ITEMS - 1) / TILE_ITEMS; }

  // Workspace: [ tile counter (256 B) ][ TileStatus<acc_t> slots ].
  static constexpr std::size_t workspace_bytes(std::size_t n) {
    return n == 0 ? 0 : COUNTER_BYTES + TileStatus<acc_t>::bytes(max_tiles(n));
  }

  static ScanLayout layout(const in_t* in, const out_t* out, std::size_t n, bool exclusive) {
    ScanLayout l{};
    l.n = n;
    l.exclusive = exclusive;
    if constexpr (vectorizable16<in_t>) {
      const auto a_in = reinterpret_cast<std::uintptr_t>(in);
      const auto a_out = reinterpret_cast<std::uintptr_t>(out);
      if (a_in % sizeof(in_t) == 0) {
        l.shift = static_cast<unsigned>((a_in % 16) / sizeof(in_t));
        l.vec_in = true;
        l.vec_out = a_out % 16 == a_in % 16;
      }
    }
    l.tiles = static_cast<unsigned>((n + l.shift + TILE_ITEMS - 1) / TILE_ITEMS);
    return l;
  }

  // Bytes to zero before the launch: the counter and this call's slots.
  static std::size_t clear_bytes(const ScanLayout& l) { return COUNTER_BYTES + TileStatus<acc_t>::bytes(l.tiles); }
};

// ---- the per-tile steps, shared with the lab's persistent kernel (lab/scan/lookback_persistent.cuh)

// s[k][j] = state of elements (k, 0..j) of this thread, from registers.
template <class P, class F>
__device__ __forceinline__ void fold_tile_vectors(const F& f,
                                                  const typename F::in_t (&x)[P::VECTORS][LookbackScan<P, F>::VEC],
                                                  typename F::acc_t (&s)[P::VECTORS][LookbackScan<P, F>::VEC]) {
  constexpr int VEC = LookbackScan<P, F>::VEC;
#pragma unroll
  for (int k = 0; k < P::VECTORS; ++k) {
    s[k][0] = f.lift(x[k][0]);
#pragma unroll
    for (int j = 1; j < VEC; ++j) s[k][j] = f.combine(s[k][j - 1], f.lift(x[k][j]));
  }
}

// The same from memory, bounds-checked (partial tiles, unaligned pointers).
template <class P, class F>
__device__ __forceinline__ void fold_tile_scalar(const F& f, const typename F::in_t* in, long long first, long long n,
                                                 typename F::acc_t (&s)[P::VECTORS][LookbackScan<P, F>::VEC]) {
  constexpr int VEC = LookbackScan<P, F>::VEC;
#pragma unroll
  for (int k = 0; k < P::VECTORS; ++k) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const long long i = first + k * 32 * VEC + j;
      const bool valid = i >= 0 && i < n;
      if (j == 0) s[k][0] = valid ? f.lift(in[i]) : f.identity();
      else s[k][j] = valid ? f.combine(s[k][j - 1], f.lift(in[i])) : s[k][j - 1];
    }
  }
}

// Prefix of each of this thread's rows within its warp; returns the warp's total.
template <class P, class F>
__device__ __forceinline__ typename F::acc_t tile_row_prefixes(
    const F& f, unsigned lane, const typename F::acc_t (&s)[P::VECTORS][LookbackScan<P, F>::VEC],
    typename F::acc_t (&row_prefix)[P::VECTORS]) {
  using acc_t = typename F::acc_t;
  constexpr int VEC = LookbackScan<P, F>::VEC;
  acc_t warp_total;
#pragma unroll
  for (int k = 0; k < P::VECTORS; ++k) {
    const acc_t inclusive = warp_inclusive_scan(s[k][VEC - 1], f);
    const acc_t lane_prefix = warp_exclusive_from_inclusive(inclusive, f);
    const acc_t row_total = shfl_idx_any(inclusive, 31);
    if (k == 0) {
      row_prefix[0] = lane_prefix;
      warp_total = row_total;
    } else {
      row_prefix[k] = lane == 0 ? warp_total : f.combine(warp_total, lane_prefix);
      warp_total = f.combine(warp_total, row_total);
    }
  }
  return warp_total;
}

// Every element = output(head . row prefix . own state), then the stores.
// head = tile prefix . warp prefix, absent (has_head false) for warp 0 of tile 0.
template <class P, class F>
__device__ __forceinline__ void write_tile(const F& f, const ScanLayout& layout, unsigned lane, bool has_head,
                                           const typename F::acc_t& head,
                                           const typename F::acc_t (&s)[P::VECTORS][LookbackScan<P, F>::VEC],
                                           const typename F::acc_t (&row_prefix)[P::VECTORS], bool vector_store,
                                           typename F::out_t* out, long long first, long long n) {
  using acc_t = typename F::acc_t;
  using out_t = typename F::out_t;
  constexpr int VECTORS = P::VECTORS;
  constexpr int VEC = LookbackScan<P, F>::VEC;
  out_t y[VECTORS][VEC];
#pragma unroll
  for (int k = 0; k < VECTORS; ++k) {
    const bool has_pre = has_head || k > 0 || lane > 0;
    const acc_t pre = has_head ? f.combine(head, row_prefix[k]) : row_prefix[k];
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      if (layout.exclusive) {
        if (j == 0) y[k][0] = f.output(has_pre ? pre : f.identity());
        else y[k][j] = f.output(has_pre ? f.combine(pre, s[k][j - 1]) : s[k][j - 1]);
      } else {
        y[k][j] = f.output(has_pre ? f.combine(pre, s[k][j]) : s[k][j]);
      }
    }
  }
  if (vector_store) {
    if constexpr (vectorizable16<out_t>) {
#pragma unroll
      for (int k = 0; k < VECTORS; ++k) store_vec16<P::HINT>(out + first + k * 32 * VEC, y[k]);
    }
  } else {
#pragma unroll
    for (int k = 0; k < VECTORS; ++k)
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const long long i = first + k * 32 * VEC + j;
        if (i >= 0 && i < n) out[i] = y[k][j];
      }
  }
}

// After the barrier that publishes the warp totals: warp 0 looks back (and
// writes the scan's total for the last tile), a barrier, then this thread's
// head = tile prefix . warp prefix; returns false where there is none (warp 0
// of tile 0). Shared by both kernels.
template <class P, class F>
__device__ __forceinline__ bool tile_head(const F& f, const TileStatus<typename F::acc_t>& status, unsigned tile,
                                          const ScanLayout& layout, unsigned warp, unsigned lane,
                                          const typename F::acc_t* s_warp_totals, typename F::acc_t* s_tile_prefix,
                                          typename F::out_t* total, typename F::acc_t& head) {
  using acc_t = typename F::acc_t;
  acc_t tile_total;
  const acc_t warp_prefix = warp_prefix_from_totals<P::THREADS>(s_warp_totals, f, tile_total);
  if (warp == 0) {
    const acc_t tile_prefix = tile_exclusive_prefix<P::LOOKBACK_PER_LANE, P::MAX_SLEEP_NS>(status, tile, tile_total, f);
    if (lane == 0) {
      *s_tile_prefix = tile_prefix;
      if (total != nullptr && tile == layout.tiles - 1)
        *total = f.output(tile == 0 ? tile_total : f.combine(tile_prefix, tile_total));
    }
  }
  __syncthreads();
  head = warp_prefix;
  bool has_head = warp > 0;
  if (tile > 0) {
    head = has_head ? f.combine(*s_tile_prefix, warp_prefix) : *s_tile_prefix;
    has_head = true;
  }
  return has_head;
}

template <class P, class F>
__global__ __launch_bounds__(P::THREADS, P::MIN_BLOCKS) void scan_lookback_kernel(const typename F::in_t* in,
                                                                                   typename F::out_t* out,
                                                                                   ScanLayout layout,
                                                                                   void* workspace,
                                                                                   typename F::out_t* total, F f) {
  using L = LookbackScan<P, F>;
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  using out_t = typename F::out_t;
  constexpr int VECTORS = P::VECTORS;
  constexpr int VEC = L::VEC;
  constexpr int WARPS = P::THREADS / 32;

  // Raw shared storage: acc_t may be a user type with constructors.
  __shared__ unsigned s_tile;
  __shared__ alignas(16) unsigned char s_raw[sizeof(acc_t) * (WARPS + 1)];
  acc_t* s_warp_totals = reinterpret_cast<acc_t*>(s_raw);
  acc_t* s_tile_prefix = s_warp_totals + WARPS;

  unsigned char* ws = static_cast<unsigned char*>(workspace);
  const TileStatus<acc_t> status(ws + L::COUNTER_BYTES, layout.tiles);
  const unsigned tile = take_tile_index(reinterpret_cast<unsigned*>(ws), s_tile);

  const unsigned lane = lane_index();
  const unsigned warp = threadIdx.x / 32;
  const long long n = static_cast<long long>(layout.n);
  const long long begin = static_cast<long long>(tile) * static_cast<long long>(L::TILE_ITEMS) - layout.shift;
  // Element (k, j) of this thread: first + k * 32 * VEC + j.
  const long long first = begin + static_cast<long long>(warp) * L::WARP_ITEMS + static_cast<long long>(lane) * VEC;
  const bool full = begin >= 0 && begin + static_cast<long long>(L::TILE_ITEMS) <= n;

  // ---- load and fold: s[k][j] = state of elements (k, 0..j) -----------------
  acc_t s[VECTORS][VEC];
  if (full && layout.vec_in) {
    if constexpr (vectorizable16<in_t>) {
      in_t x[VECTORS][VEC];
#pragma unroll
      for (int k = 0; k < VECTORS; ++k) load_vec16<P::HINT>(in + first + k * 32 * VEC, x[k]);
      fold_tile_vectors<P>(f, x, s);
    }
  } else {
    fold_tile_scalar<P>(f, in, first, n, s);
  }

  // ---- rows: prefix of each thread's row within the warp ---------------------
  acc_t row_prefix[VECTORS];
  const acc_t warp_total = tile_row_prefixes<P>(f, lane, s, row_prefix);

  // ---- block: warp totals, tile aggregate, look-back -------------------------
  if (lane == 0) s_warp_totals[warp] = warp_total;
  __syncthreads();
  acc_t head;
  const bool has_head = tile_head<P>(f, status, tile, layout, warp, lane, s_warp_totals, s_tile_prefix, total, head);
  write_tile<P>(f, layout, lane, has_head, head, s, row_prefix, full && layout.vec_out, out, first, n);
}

}  // namespace tessera::gpu
