// rle step 3's kernel — run-length encoding in one pass with decoupled
// look-back, tuned by a policy (the status view and look-back window). The
// product instantiates the packed-status policy (03_single_pass_lean.cu);
// the first, split status is the lab's (lab/compose/rle_single_pass_split_status.cu).
//
// What it changes over step 2 (flags_scan_scatter, four kernels and n-sized
// flag, index and start arrays): the input is read once and only the keys and
// lengths are written. Each block takes the next tile from an atomic counter,
// loads it with 16-byte vectors (the select tiles' striped layout), marks run
// heads (x[i] != x[i-1]) and run ends (x[i] != x[i+1]) with the neighbours
// from the neighbouring lanes (warp shuffles; lanes 0 and 31 load one
// element), and ranks heads and ends with one block scan of two SWAR words.
// Heads stage their keys and slots in shared memory in run order; each run
// end finds its run's start among them (or, for a run entering from the
// previous tile, from the look-back) and stages the run's length. The look-
// back (lookback.cuh's warp_lookback over the policy's status of RunState:
// 16 bytes) carries the number of runs started before the tile and the
// position of the last of those starts (RunsBefore); the block then writes
// keys and lengths with coalesced stores. The last tile writes the number of
// runs.
//
// Bytes: the input once; keys + int64 lengths once per run; 36 bytes of state
// per tile. Bottleneck: DRAM bandwidth, plus the look-back latency hidden by
// the other resident blocks.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/aligned_tiles.cuh"
#include "tessera/blocks/block_scan.cuh"
#include "tessera/blocks/lookback.cuh"
#include "tessera/blocks/warp_scan.cuh"
#include "families/compose/swar.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl::rle_single_pass {

using gpu::swar_field;

// The select tiles' shape (select_tile.cuh, SelectPolicy): 256 threads x 4
// vectors of 16 bytes.
inline constexpr int BLOCK = 256;
inline constexpr int VECS = 4;
// No minimum-blocks bound: uncapped the kernel takes 76 registers with the
// primary policy (3 blocks, 768 threads, 48 KiB of loads in flight per SM,
// enough for H100), 48 with the packed status (5 blocks); capped at 64 (4
// blocks) the primary spills 12-24 bytes.
inline constexpr unsigned NO_START = 0xFFFFFFFFu;  // "the run started before this tile"

// What a tile tells its successors: the runs started in it (or before it,
// inclusive) and where the last of them started (-1 if none).
struct RunState {
  unsigned long long runs;
  long long last_start;
};

// Combining in order: counts add, the later tile's last start wins if it has
// one. Associative; the identity is {0, -1}.
struct RunsBefore {
  using acc_t = RunState;
  __device__ __forceinline__ acc_t identity() const { return {0ull, -1}; }
  __device__ __forceinline__ acc_t combine(const acc_t& left, const acc_t& right) const {
    return {left.runs + right.runs, right.last_start >= 0 ? right.last_start : left.last_start};
  }
};
using RunStatus = gpu::TileStatus<RunState>;

// A point of the tuning: the status view the look-back polls and how many
// predecessors each lane reads per round.
template <class Status_, int LOOKBACK_PER_LANE_>
struct Policy {
  using Status = Status_;
  static constexpr int LOOKBACK_PER_LANE = LOOKBACK_PER_LANE_;
};

template <class T>
struct RleTile {
  static constexpr int VEC = gpu::VEC16<T>;
  static constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK) * VECS * VEC;
  static_assert(BLOCK * VEC < (1 << 16), "a SWAR field counts up to BLOCK * VEC elements in 16 bits");
  using Counts = gpu::SumU64s<2>;  // run heads and run ends, one block scan

  struct Storage {
    T keys[TILE];          // the tile's run keys, in run order
    unsigned slots[TILE];  // the slot of each run head; then (reused) each run's staged length
    typename Counts::acc_t warp_totals[BLOCK / 32];
    unsigned long long prefix_runs;
    long long prefix_last;
    long long tile_last;  // the last run start in the tile
    unsigned tile_index;
    bool enters;          // the tile's first element continues a run from the previous tile
  };

  __device__ __forceinline__ static std::size_t slot(int k, unsigned t, int j) {
    return gpu::striped_slot<BLOCK, VEC>(k, t, j);
  }
};

template <class T, class P>
__global__ __launch_bounds__(BLOCK) void rle_single_pass_kernel(const T* __restrict__ in, T* __restrict__ keys_out,
                                                                std::int64_t* __restrict__ lengths_out,
                                                                std::int64_t* __restrict__ num_runs,
                                                                gpu::AlignedTiles tiles, bool vec_in,
                                                                typename P::Status status,
                                                                unsigned* __restrict__ counter) {
  using Tile = RleTile<T>;
  constexpr int VEC = Tile::VEC;
  __shared__ typename Tile::Storage s;
  const unsigned t = threadIdx.x, lane = t % 32;
  const std::size_t n = tiles.n;

  const unsigned b = gpu::take_tile_index(counter, s.tile_index);  // tiles in the order blocks start
  const std::size_t lo = tiles.lo(b);

  // ---- load; run heads and run ends --------------------------------------
  T x[VECS][VEC];
  unsigned head[VECS], end[VECS];
  if (vec_in && tiles.full(b)) {  // block-uniform: every lane reaches the shuffles
    gpu::load_striped<BLOCK, VECS>(in - tiles.pad + b * tiles.tile, x);  // 16-byte aligned
    T before[VECS], after[VECS];  // lanes 0 and 31: the elements around the warp's vectors
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      const std::size_t first = tiles.element(b, Tile::slot(k, t, 0)), last = first + VEC - 1;
      before[k] = lane == 0 && first > 0 ? in[first - 1] : T(0);
      after[k] = lane == 31 && last + 1 < n ? in[last + 1] : T(0);
    }
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      const std::size_t first = tiles.element(b, Tile::slot(k, t, 0)), last = first + VEC - 1;
      T left = gpu::shfl_up_any(x[k][VEC - 1], 1), right = gpu::shfl_idx_any(x[k][0], static_cast<int>(lane) + 1);
      if (lane == 0) left = before[k];
      if (lane == 31) right = after[k];
      unsigned h = first == 0 || differs(left, x[k][0]) ? 1u : 0u;
      unsigned e = last + 1 == n || differs(x[k][VEC - 1], right) ? 1u << (VEC - 1) : 0u;
#pragma unroll
      for (int j = 1; j < VEC; ++j) {
        const bool boundary = differs(x[k][j - 1], x[k][j]);
        h |= boundary ? 1u << j : 0u;
        e |= boundary ? 1u << (j - 1) : 0u;
      }
      head[k] = h;
      end[k] = e;
    }
  } else {  // first or last tile: element by element, slots [lo, hi) only
    const std::size_t hi = tiles.hi(b);
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      unsigned h = 0, e = 0;
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const std::size_t q = Tile::slot(k, t, j);
        x[k][j] = T(0);
        if (q < lo || q >= hi) continue;
        const std::size_t i = tiles.element(b, q);
        x[k][j] = in[i];
        h |= i == 0 || differs(in[i - 1], x[k][j]) ? 1u << j : 0u;
        e |= i + 1 == n || differs(x[k][j], in[i + 1]) ? 1u << j : 0u;
      }
      head[k] = h;
      end[k] = e;
    }
  }

  // ---- rank heads and ends: one scan of two SWAR words ---------------------
  typename Tile::Counts::acc_t words{}, sums;
#pragma unroll
  for (int k = 0; k < VECS; ++k) {
    words.w[0] |= gpu::swar_put(k, __popc(head[k]));
    words.w[1] |= gpu::swar_put(k, __popc(end[k]));
  }
  const auto before_me = gpu::block_exclusive_scan<BLOCK>(words, typename Tile::Counts{}, s.warp_totals, sums);
  const unsigned long long ranks[2] = {before_me.w[0], before_me.w[1]}, totals[2] = {sums.w[0], sums.w[1]};
  const unsigned heads = gpu::swar_total(totals[0]), ends = gpu::swar_total(totals[1]);

  // ---- heads: keys and slots in run order ---------------------------------
  {
    unsigned before = 0;
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      unsigned r = before + swar_field(ranks[0], k);
#pragma unroll
      for (int j = 0; j < VEC; ++j)
        if (head[k] & (1u << j)) {
          s.keys[r] = x[k][j];
          s.slots[r] = static_cast<unsigned>(Tile::slot(k, t, j));
          if (r == heads - 1) s.tile_last = static_cast<long long>(tiles.element(b, Tile::slot(k, t, j)));
          ++r;
        }
      before += swar_field(totals[0], k);
    }
  }
  __syncthreads();
  if (t == 0) {  // publish at once (tile 0: its inclusive prefix)
    const RunState mine{heads, heads > 0 ? s.tile_last : -1};
    status.publish(b, b == 0 ? gpu::TILE_INCLUSIVE : gpu::TILE_AGGREGATE, mine);
    s.enters = !(heads > 0 && s.slots[0] == lo);
  }
  // The run each vector starts in: the slot of the last head before it, if any.
  unsigned start_before[VECS];
  {
    unsigned before = 0;
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      const unsigned h = before + swar_field(ranks[0], k);
      start_before[k] = h > 0 ? s.slots[h - 1] : NO_START;
      before += swar_field(totals[0], k);
    }
  }
  __syncthreads();  // every read of the head slots is done: `slots` now holds lengths

  // ---- ends: each run's length, in run order -------------------------------
  {
    unsigned before = 0;
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      unsigned start = start_before[k];
      unsigned r = before + swar_field(ranks[1], k);
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const auto q = static_cast<unsigned>(Tile::slot(k, t, j));
        if (head[k] & (1u << j)) start = q;
        // A run entering from the previous tile: its part in this tile (the
        // rest is added from the look-back when it is written).
        if (end[k] & (1u << j)) s.slots[r++] = start == NO_START ? q - static_cast<unsigned>(lo) + 1 : q - start + 1;
      }
      before += swar_field(totals[1], k);
    }
  }

  // ---- look-back: runs before the tile, and the last run start -------------
  if (t < 32) {
    const RunsBefore f;
    const RunState p = b == 0 ? f.identity() : gpu::warp_lookback<P::LOOKBACK_PER_LANE>(status, b, f);
    if (t == 0) {
      if (b > 0) status.publish(b, gpu::TILE_INCLUSIVE, f.combine(p, RunState{heads, heads > 0 ? s.tile_last : -1}));
      s.prefix_runs = p.runs;
      s.prefix_last = p.last_start;
    }
  }
  __syncthreads();

  // ---- write keys and lengths ----------------------------------------------
  const unsigned long long runs_before = s.prefix_runs;
  for (unsigned r = t; r < heads; r += BLOCK) keys_out[runs_before + r] = s.keys[r];
  const bool enters = s.enters;
  const unsigned long long first_run = runs_before - (enters ? 1u : 0u);  // the run the tile's first end closes
  const auto first_element = static_cast<long long>(tiles.element(b, lo));
  for (unsigned r = t; r < ends; r += BLOCK) {
    std::int64_t length = s.slots[r];
    if (r == 0 && enters) length += first_element - s.prefix_last;  // the run's elements before the tile
    lengths_out[first_run + r] = length;
  }
  if (t == 0 && b + 1 == tiles.count) *num_runs = static_cast<std::int64_t>(runs_before + heads);
}

// Workspace: [ tile counter (256 B) ][ status slots ], zeroed by one
// cudaMemsetAsync per run (TILE_INVALID == 0).
inline constexpr std::size_t COUNTER_BYTES = gpu::align_workspace(sizeof(unsigned));

inline std::size_t tiles_for(const Spec& s) {
  std::size_t tiles = 0;
  dispatch_key_type(s.dtype, [&]<class T>() { tiles = gpu::max_aligned_tiles<T>(s.n, RleTile<T>::TILE); });
  return tiles;
}

template <class P>
void run(const Call& call) {
  using Status = typename P::Status;
  const std::size_t n = call.spec.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_key_type(call.spec.dtype, [&]<class T>() {
    const T* in = static_cast<const T*>(call.in);
    const gpu::AlignedTiles tiles = gpu::aligned_tiles(in, n, RleTile<T>::TILE);
    TESSERA_CUDA(cudaMemsetAsync(call.workspace, 0, COUNTER_BYTES + Status::bytes(tiles.count), call.stream));
    const Status status(gpu::workspace_at<unsigned char>(call.workspace, COUNTER_BYTES), tiles.count);
    const unsigned grid = gpu::checked_grid(tiles.count, "rle_single_pass_kernel", n);
    detail::launch("rle_single_pass_kernel", rle_single_pass_kernel<T, P>, dim3(grid), dim3(BLOCK), 0, call.stream, n,
                   in, static_cast<T*>(call.out), call.lengths, call.count, tiles, gpu::vector_ok(in), status,
                   gpu::workspace_at<unsigned>(call.workspace, 0));
  });
}

template <class P>
std::size_t workspace_bytes(const Spec& s) {
  return s.n == 0 ? 0 : COUNTER_BYTES + P::Status::bytes(tiles_for(s));
}

}  // namespace tessera::compose_impl::rle_single_pass
