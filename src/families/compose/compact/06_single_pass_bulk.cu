// Compact / unique step 6 (variant single_pass_bulk; the API's pick for
// compaction by predicate and for unique): the select tile of step 5's
// single_pass_early (512 x 4 16-byte vectors: 32 KiB of keys) run by
// the scan's warp-specialised persistent look-back (src/families/scan/
// lookback_bulk.cuh explains the roles and why: 92% of copy there against
// 84% for the early look-back). One block per SM:
//   - producer warp: claims the next tile when a buffer is free and bulk-
//     copies (TMA) the whole tile into it (partial end tiles: none, the
//     others read them from global memory);
//   - 8 aggregator warps: count the tile's selected elements from shared
//     memory as soon as it lands (the same predicate or neighbour test as
//     the tile's), an eighth of the tile each; the last to finish publishes
//     the count;
//   - look-back warp: in tile order, the 64-bit exclusive count before the
//     tile (sparse 32-slot look-back), published inclusive, handed over;
//   - 512 consumer threads: select from shared memory (SelectTile::
//     load_shared), rank with one consumer-only barrier, release the buffer,
//     stage the selected elements in output order and store them with
//     st.global.cs.
// Same outputs, count and status protocol as single_pass_early; compact by
// predicate and unique (flagged compaction and partition keep
// single_pass_early and single_pass_wide). For unique the tile's copy
// starts 16 bytes early, so that the element before the tile is in shared
// memory too and no role waits on a global load. Below sm_90, or without
// 160 KiB of shared memory per block, the rung runs single_pass_early.
//
// Measured (H100, 2^28; docs/compose.md): compact float x>t 5 / 50 / 95%
// at 85 / 89 / 91% of copy, 1.36 / 1.17 / 1.24x cub_select_if; unique int32
// runs 83 / 89 / 91%, 1.32 / 1.19 / 1.25x cub_select_unique.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "families/compose/count_status.cuh"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_sparse.cuh"
#include "tessera/blocks/mbarrier.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/select_dispatch.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

using gpu::SelectMode;

struct BulkPolicy {
  static constexpr int BLOCK_THREADS = 512;  // consumers
  static constexpr int VECS = 4;
};
// An aggregator warp's arrival in s_partial[b]: its count goes in the low bits.
constexpr unsigned AGGREGATOR_ARRIVAL = 1u << 20;
constexpr int BUFFERS = 4;
// Warps counting each landed tile, an eighth of it each. The count must
// keep pace with the tile's DRAM time (~1.4 us per 32 KiB tile and SM on
// the H100). Measured (H100, 2^28, % of copy at 50% selected; 5% in
// brackets): 1 warp compact 82.7 (71.2), unique 72.4 (53.7); 2 warps
// 86.0 (80.0), 82.3 (68.7); 4 warps 88.5 (85.0), 87.4 (81.3); 8 warps
// 89.2 (84.9), 88.7 (82.6).
constexpr int AGGREGATORS = 8;
constexpr int ROLE_WARPS = 2 + AGGREGATORS;  // producer, aggregators, look-back
// Elements in a buffer's head: 128 bytes, so that every tile lands 128-byte
// aligned in shared memory (the first H100 run, with no head, measured
// compact 84.4% of copy; with a 16-byte head 78.4%). Unique copies the 16
// bytes before the tile into the head's end.
template <class T>
constexpr unsigned HEAD_OF = 128 / sizeof(T);
template <class T>
constexpr unsigned NEIGHBOUR_OF = 16 / sizeof(T);  // elements copied before a unique tile

template <class T, SelectMode MODE>
using BulkTile = gpu::SelectTile<T, MODE, false, BulkPolicy>;

// Selected elements of tile b counted by aggregator warp `part` of
// AGGREGATORS: its share of the vectors of the shared copy `staged` (full
// tiles; for unique staged[-1] is the element before tile b > 0), or, for a
// partial tile, part 0 alone from global memory. Predicate and unique modes.
// The full-tile loop has a fixed trip count and is unrolled, so that a warp
// keeps several shared loads in flight. (One warp with a load-then-use loop
// capped unique at ~0.70 ms for 2^28 int32 keys whatever the share of heads
// on the H100: ~2.8 us per tile and SM, twice the tile's DRAM time.)
template <class T, SelectMode MODE>
__device__ __forceinline__ unsigned warp_count_selected(const T* staged, bool whole, const T* __restrict__ in,
                                                        const gpu::SelectParams<T>& p, const gpu::AlignedTiles& tiles,
                                                        std::size_t b, unsigned part, unsigned lane) {
  using Tile = BulkTile<T, MODE>;
  constexpr unsigned VEC = Tile::VEC;
  constexpr unsigned ROUNDS = static_cast<unsigned>(Tile::TILE / VEC) / AGGREGATORS / 32;
  static_assert(ROUNDS * 32 * AGGREGATORS * VEC == Tile::TILE, "the aggregators split a tile into whole rounds");
  unsigned count = 0;
  if (whole) {
    // The slot of element 0 when this tile holds it (a full tile 0 has pad 0).
    const std::size_t input_start = b == 0 ? 0 : Tile::TILE;
#pragma unroll 8
    for (unsigned r = 0; r < ROUNDS; ++r) {
      const std::size_t q = ((part * ROUNDS + r) * 32 + lane) * VEC;
      T v[VEC];
      const uint4 w = *reinterpret_cast<const uint4*>(staged + q);
      memcpy(v, &w, sizeof(w));
      unsigned m = 0;
      if constexpr (MODE == SelectMode::predicate) {
        m = Tile::passing_mask(p, v);
      } else {
        // The left neighbour: the lane below's last element; lane 0 reads it
        // (staged[-1], the head, before the tile's first vector).
        T left = gpu::shfl_up_any(v[VEC - 1], 1);
        if (lane == 0) left = q == input_start ? v[0] : staged[static_cast<std::ptrdiff_t>(q) - 1];
        m |= q == input_start || gpu::differs(left, v[0]) ? 1u : 0u;
#pragma unroll
        for (unsigned j = 1; j < VEC; ++j) m |= gpu::differs(v[j - 1], v[j]) ? 1u << j : 0u;
      }
      count += __popc(m);
    }
  } else if (part == 0) {
    const std::size_t lo = tiles.lo(b), hi = tiles.hi(b);
    for (std::size_t q = lo + lane; q < hi; q += 32) {
      const std::size_t i = tiles.element(b, q);
      bool s;
      if constexpr (MODE == SelectMode::predicate) s = gpu::passes(p.pred, in[i], p.threshold);
      else s = i == 0 || gpu::differs(in[i - 1], in[i]);
      count += s ? 1u : 0u;
    }
  }
  return __reduce_add_sync(0xFFFFFFFFu, count);
}

template <class T, SelectMode MODE>
__global__ __launch_bounds__(BulkPolicy::BLOCK_THREADS + 32 * ROLE_WARPS, 1) void select_single_pass_bulk_kernel(
    const T* __restrict__ in, const std::uint8_t* __restrict__ flags, T* __restrict__ out,
    std::int64_t* __restrict__ count, gpu::SelectParams<T> params, gpu::AlignedTiles tiles, bool vec_in,
    bool vec_flags, gpu::CountStatus status, unsigned* __restrict__ tile_counter) {
#if TESSERA_MBARRIER
  using Tile = BulkTile<T, MODE>;
  constexpr int BLOCK = Tile::BLOCK;
  constexpr int WARPS = BLOCK / 32;
  constexpr int PRODUCER = WARPS, FIRST_AGGREGATOR = WARPS + 1, LOOKBACK = WARPS + 1 + AGGREGATORS;
  constexpr unsigned TILE_BYTES = static_cast<unsigned>(Tile::TILE * sizeof(T));
  constexpr unsigned HEAD = HEAD_OF<T>;

  extern __shared__ __align__(128) unsigned char s_dynamic[];
  // BUFFERS buffers of HEAD + TILE elements: the tile at staged(b), after a
  // 128-byte head whose last 16 bytes hold, for unique, the 16 bytes before
  // the tile (its left neighbour at staged(b)[-1]; copied with the tile, so
  // no role waits on a global load for it).
  // The buffers start at the first 128-byte boundary of the dynamic shared
  // memory (its declared alignment is not a promise; 128 bytes are spare).
  T* const buffers = reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(s_dynamic) + 127) & ~std::uintptr_t{127});
  auto staged = [&](unsigned b) { return buffers + b * (HEAD + Tile::TILE) + HEAD; };
  __shared__ typename Tile::Storage storage;      // the staged output of the consumers' current tile
  __shared__ std::uint64_t full[BUFFERS], empty[BUFFERS], count_ready[BUFFERS], prefix_ready[BUFFERS];
  __shared__ unsigned s_tile[BUFFERS], s_count[BUFFERS];
  __shared__ unsigned s_partial[BUFFERS];  // the aggregators' arrivals and counts so far (AGGREGATOR_ARRIVAL)
  __shared__ unsigned long long s_prefix[BUFFERS];

  if (threadIdx.x == 0) {
    for (int b = 0; b < BUFFERS; ++b) {
      gpu::mbar_init(&full[b], 1);
      gpu::mbar_init(&empty[b], 1 + AGGREGATORS);  // consumers, aggregators
      s_partial[b] = 0;
      gpu::mbar_init(&count_ready[b], 1);
      gpu::mbar_init(&prefix_ready[b], 1);
    }
    gpu::mbar_init_fence();
  }
  __syncthreads();  // the only block-wide barrier

  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned n_tiles = static_cast<unsigned>(tiles.count);
  auto bulk_tile = [&](unsigned t) { return vec_in && tiles.full(t); };

  if (warp == PRODUCER) {
    if (lane == 0) {
      for (unsigned i = 0;; ++i) {
        const unsigned b = i % BUFFERS;
        if (i >= BUFFERS) gpu::mbar_wait(&empty[b], (i / BUFFERS - 1) & 1u);
        const unsigned t = atomicAdd(tile_counter, 1u);
        s_tile[b] = t;  // >= n_tiles: the end, for every role
        if (t < n_tiles && bulk_tile(t)) {
          const T* src = in - tiles.pad + t * tiles.tile;  // 16-byte aligned
          // unique, t > 0: the 16 bytes before the tile too (inside the
          // input: a full tile t > 0 starts >= TILE - pad elements in), in
          // the same copy (a 16-byte copy of their own, which kept the
          // tile's copy 128-byte aligned, measured unique 50% at 70.9% of
          // copy against 73.5%).
          const unsigned before = MODE == SelectMode::unique && t > 0 ? NEIGHBOUR_OF<T> : 0u;
          gpu::mbar_arrive_expect_tx(&full[b], TILE_BYTES + before * sizeof(T));
          gpu::bulk_copy_to_shared(staged(b) - before, src - before, TILE_BYTES + before * sizeof(T), &full[b]);
        } else {
          gpu::mbar_arrive(&full[b]);
        }
        if (t >= n_tiles) break;
      }
    }
    return;
  }

  if (warp >= FIRST_AGGREGATOR && warp < FIRST_AGGREGATOR + AGGREGATORS) {
    // Each counts its share of the tile; the last to add its count to
    // s_partial[b] publishes the tile's total. It also resets s_partial[b]
    // before it releases the buffer, so the next tile in b starts from zero.
    const unsigned part = warp - FIRST_AGGREGATOR;
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % BUFFERS, parity = (i / BUFFERS) & 1u;
      gpu::mbar_wait(&full[b], parity);
      const unsigned t = s_tile[b];
      if (t >= n_tiles) {
        if (part == 0 && lane == 0) gpu::mbar_arrive(&count_ready[b]);
        break;
      }
      const unsigned c = warp_count_selected<T, MODE>(staged(b), bulk_tile(t), in, params, tiles, t, part, lane);
      __syncwarp();  // every lane's reads of the buffer are done
      if (lane == 0) {
        const unsigned before = atomicAdd(&s_partial[b], AGGREGATOR_ARRIVAL + c);
        if (before / AGGREGATOR_ARRIVAL == AGGREGATORS - 1) {
          const unsigned total = before % AGGREGATOR_ARRIVAL + c;
          s_partial[b] = 0;
          status.publish(t, t == 0 ? gpu::TILE_INCLUSIVE : gpu::TILE_AGGREGATE, total);
          s_count[b] = total;
          gpu::mbar_arrive(&count_ready[b]);
        }
        gpu::mbar_arrive(&empty[b]);
      }
    }
    return;
  }

  if (warp == LOOKBACK) {
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % BUFFERS, parity = (i / BUFFERS) & 1u;
      gpu::mbar_wait(&count_ready[b], parity);
      const unsigned t = s_tile[b];
      if (t < n_tiles) {
        unsigned long long prefix = 0;
        if (t > 0) {
          prefix = gpu::warp_lookback_sparse(status, t, gpu::SumU64{});
          if (lane == 0) status.publish(t, gpu::TILE_INCLUSIVE, prefix + s_count[b]);
        }
        if (lane == 0) s_prefix[b] = prefix;
      }
      __syncwarp();
      if (lane == 0) gpu::mbar_arrive(&prefix_ready[b]);
      if (t >= n_tiles) break;
    }
    return;
  }

  // ---- consumers -----------------------------------------------------------------
  for (unsigned i = 0;; ++i) {
    const unsigned b = i % BUFFERS, parity = (i / BUFFERS) & 1u;
    gpu::mbar_wait(&full[b], parity);
    const unsigned t = s_tile[b];
    if (t >= n_tiles) break;
    Tile tile;
    if (bulk_tile(t)) {
      const T before = t > 0 ? staged(b)[-1] : T(0);  // unique (tile 0's first element is always a head)
      tile.load_shared(staged(b), before, flags, params, tiles, t, vec_flags);
    } else {
      tile.load(in, flags, params, tiles, t, false, vec_flags);
    }
    // The prefix before the buffer is released: the look-back warp rewrites
    // s_prefix[b] once the buffer holds its next tile. Usually long known.
    gpu::mbar_wait(&prefix_ready[b], parity);
    const unsigned long long prefix = s_prefix[b];
    // Rank: Tile::rank's block scan with a consumer-only barrier.
    unsigned long long word = 0;
#pragma unroll
    for (int k = 0; k < Tile::VECS; ++k) word |= gpu::swar_put(k, __popc(tile.selected[k]));
    const unsigned long long inclusive = gpu::warp_inclusive_scan(word, gpu::SumU64{});
    if (lane == 31) storage.warp_totals[warp] = inclusive;
    // Consumers only. A consumer passes it once every consumer has read the
    // buffer and the prefix, written its warp total and finished storing the
    // previous tile from `storage.items` (so staging below is safe) and
    // reading the previous warp totals.
    asm volatile("bar.sync 1, %0;\n" ::"r"(BLOCK) : "memory");
    if (threadIdx.x == 0) gpu::mbar_arrive(&empty[b]);
    unsigned long long total;
    const unsigned long long warp_prefix = gpu::warp_prefix_from_totals<BLOCK>(storage.warp_totals, gpu::SumU64{}, total);
    const unsigned long long lane_prefix = gpu::warp_exclusive_from_inclusive(inclusive, gpu::SumU64{});
    tile.exclusive = warp == 0 ? lane_prefix : (lane == 0 ? warp_prefix : warp_prefix + lane_prefix);
    tile.total = total;
    tile.count = gpu::swar_total(total);
    tile.stage(storage, tiles, t);
    asm volatile("bar.sync 1, %0;\n" ::"r"(BLOCK) : "memory");  // the staged tile is visible
    tile.write_vectors(storage, out, prefix);
    if (threadIdx.x == 0 && t + 1 == n_tiles) *count = static_cast<std::int64_t>(prefix + tile.count);
  }
#else
  (void)in, (void)flags, (void)out, (void)count, (void)params, (void)tiles, (void)vec_in, (void)vec_flags,
      (void)status, (void)tile_counter;
  __trap();  // sm_90+ only: the host never launches it elsewhere
#endif
}

constexpr std::size_t COUNTER_BYTES = gpu::align_workspace(sizeof(unsigned));

template <class T, SelectMode MODE>
constexpr std::size_t dynamic_smem() {
  return static_cast<std::size_t>(BUFFERS) * (HEAD_OF<T> + BulkTile<T, MODE>::TILE) * sizeof(T) + 128;
}

// Compact by predicate and unique. Flagged compaction is not taken: the
// aggregator's byte-wise flag reads made it 0.50x cub_select_flagged on the
// H100 (single_pass_early: 1.07x).
bool takes(const Spec& s) {
  return ((s.family == Family::compact && !s.flagged) || s.family == Family::unique) && family_supports(s);
}

}  // namespace

void run_select_single_pass_bulk(const Call& call) {
  const Spec& s = call.spec;
  if (!takes(s)) throw Error("select variant 'single_pass_bulk' runs compact by predicate and unique only");
  if (s.n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  bool ran = false;
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    if constexpr (!PARTITION && MODE != SelectMode::flagged) {
      using Tile = BulkTile<T, MODE>;
      constexpr std::size_t smem = dynamic_smem<T, MODE>();
      if (!gpu::bulk_kernel_fits(smem + sizeof(typename Tile::Storage) + 1024)) return;  // buffers, staging, barriers
      auto kernel = select_single_pass_bulk_kernel<T, MODE>;
      TESSERA_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
      const SelectLaunch<T, Tile> l(call, "select_single_pass_bulk_kernel");
      const auto sms = static_cast<std::size_t>(gpu::sm_count());  // one persistent block per SM
      const unsigned grid = static_cast<unsigned>(l.tiles.count < sms ? l.tiles.count : sms);
      const std::size_t slots = gpu::CountStatus::bytes(l.tiles.count);
      TESSERA_CUDA(cudaMemsetAsync(call.workspace, 0, COUNTER_BYTES + slots, call.stream));
      const gpu::CountStatus status(gpu::workspace_at<unsigned char>(call.workspace, COUNTER_BYTES), l.tiles.count);
      detail::launch("select_single_pass_bulk_kernel", kernel, dim3(grid), dim3(Tile::BLOCK + 32 * ROLE_WARPS), smem,
                     call.stream, s.n, static_cast<const T*>(call.in), call.flags, static_cast<T*>(call.out),
                     call.count, l.params, l.tiles, l.vec_in, l.vec_flags, status,
                     gpu::workspace_at<unsigned>(call.workspace, 0));
      ran = true;
    }
  });
  if (!ran) run_select_single_pass_early(call);
}

// The larger of this rung's and single_pass_early's workspace (its fallback).
std::size_t ws_select_single_pass_bulk(const Spec& s) {
  if (s.n == 0) return 0;
  std::size_t tiles = 0;
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    if constexpr (!PARTITION && MODE != SelectMode::flagged)
      tiles = gpu::max_aligned_tiles<T>(s.n, BulkTile<T, MODE>::TILE);
  });
  const std::size_t own = COUNTER_BYTES + gpu::CountStatus::bytes(tiles);
  const std::size_t early = ws_select_single_pass_early(s);
  return own > early ? own : early;
}

bool supports_select_single_pass_bulk(const Spec& s) { return takes(s); }

}  // namespace tessera::compose_impl
