// Compact / partition / unique step 5 (variant single_pass_early; the API's
// pick for flagged compaction, and single_pass_bulk's fallback below sm_90):
// step 4's single_pass_wide (04_single_pass.cu) with the four changes that moved the
// scan's look-back from 78% to 84.5% of copy on the H100 (scan
// lookback_early.cuh, docs/scan.md):
//   1. the look-back warp starts at once: warp 0 publishes the tile's count
//      right after the rank's block scan (as before) and looks back BEFORE
//      staging its own elements, while warps 1..W-1 stage theirs (before,
//      every warp staged first, so each look-back started a staging later
//      and successors waited that much longer for the inclusive prefix);
//   2. the sparse 32-slot look-back (lookback_sparse.cuh): one 8-byte status
//      word per lane, only the lanes whose slot is still missing re-poll
//      (single_pass_wide re-reads 64 slots, 512 B, on every poll; the scan's
//      128-slot window cost it 10 points of copy against 32 slots);
//   3. the tile-index atomic's L2 round trip is overlapped with an L2
//      prefetch of tile blockIdx.x (one prefetch per 128-byte line), which
//      the counter nearly always hands to this block or one starting with it;
//      the counter still decides, so deadlock freedom is unchanged;
//   4. compact and unique write their output with st.global.cs (evict-first):
//      the output stream does not push the status lines and the next tiles'
//      input out of L2. (Partition keeps SelectTile::write: its two output
//      ranges are written the same way as before.)
// Same tiles (512 x 4 16-byte vectors: 32 KiB of 4-byte keys), status words
// (CountStatus), workspace layout, alignment rules, in-place rules and count
// output as single_pass_wide.
//
// Bottleneck: DRAM bandwidth once the look-back no longer leaves SMs idle.
// Expected (H100, 2^28, 50% selected): compact float 78-84% of copy
// (1.03-1.1x cub_select_if at 75.7%), unique int32 76-82% (1.03-1.1x
// cub_select_unique at 73.7%), partition ~1.05-1.1x cub_partition_if.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "families/compose/count_status.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_sparse.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/prefetch.cuh"
#include "families/compose/select_dispatch.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

using gpu::SelectMode;

// Tuning (provenance: single_pass_wide's tile, the best select tile on the
// H100 so far). Register cap from the ptxas report (-Xptxas -v, sm_90):
// looking back before staging keeps the tile's keys live across the
// look-back, so wide's 32-register cap (4 blocks per SM) spilled 32-160 bytes
// in every instantiation; 3 blocks (40 registers) spill nothing for compact,
// flagged and 4-byte unique; partition (50-56 registers) and int64 unique (48)
// take 2 blocks. Bytes in flight: 2-3 x 32 KiB per SM, over the ~31 KB
// Little's law asks of an H100 SM.
template <int MIN_BLOCKS_>
struct EarlyPolicy {
  static constexpr int BLOCK_THREADS = 512;
  static constexpr int VECS = 4;                 // 16-byte vectors per thread per tile
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;  // __launch_bounds__ blocks per SM (register cap)
  static constexpr unsigned PREFETCH_EVERY = 8;  // threads per prefetch: 8 x 16 B = one 128-byte line
  static_assert(MIN_BLOCKS >= 1 && MIN_BLOCKS * BLOCK_THREADS <= 2048, "MIN_BLOCKS: blocks an sm_90 SM can hold");
  static_assert(BLOCK_THREADS % PREFETCH_EVERY == 0, "prefetch lines inside a vector row");
};

template <class T, SelectMode MODE, bool PARTITION>
using PolicyFor = EarlyPolicy<(PARTITION || (MODE == SelectMode::unique && sizeof(T) == 8)) ? 2 : 3>;

template <class T, SelectMode MODE, bool PARTITION>
using EarlyTile = gpu::SelectTile<T, MODE, PARTITION, PolicyFor<T, MODE, PARTITION>>;

template <class T, SelectMode MODE, bool PARTITION, class P = PolicyFor<T, MODE, PARTITION>>
__global__ __launch_bounds__(P::BLOCK_THREADS, P::MIN_BLOCKS) void select_single_pass_early_kernel(
    const T* __restrict__ in, const std::uint8_t* __restrict__ flags, T* __restrict__ out,
    std::int64_t* __restrict__ count, gpu::SelectParams<T> params, gpu::AlignedTiles tiles, bool vec_in,
    bool vec_flags, gpu::CountStatus status, unsigned* __restrict__ tile_counter) {
  using Tile = EarlyTile<T, MODE, PARTITION>;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned tile_slot;
  __shared__ unsigned long long tile_prefix;

  // While the tile index is an L2 atomic away, prefetch the tile this block
  // would get if the counter followed blockIdx.x (blocks start nearly in
  // index order). Full, vector-readable tiles only: every line prefetched
  // lies inside the input (blockIdx.x < tiles.count: grid = tiles.count).
  {
    const std::size_t guess = blockIdx.x;
    if (vec_in && tiles.full(guess) && threadIdx.x % P::PREFETCH_EVERY == 0) {
      const T* base = in - tiles.pad + guess * tiles.tile;  // 16-byte aligned: lo(guess) == 0
#pragma unroll
      for (int k = 0; k < Tile::VECS; ++k) gpu::prefetch_l2(base + Tile::slot(k, threadIdx.x, 0));
    }
  }

  // Tiles in the order blocks start: every tile this one waits for is running.
  const unsigned b = gpu::take_tile_index(tile_counter, tile_slot);

  Tile tile;
  tile.load(in, flags, params, tiles, b, vec_in && tiles.full(b), vec_flags);
  tile.rank(storage);  // block scan: a barrier inside; every thread has tile.count after it
  if (threadIdx.x < 32) {
    // Warp 0: publish at once (tile 0: its inclusive prefix), look back, then
    // stage its own elements; the other warps stage meanwhile.
    if (b == 0) {
      if (threadIdx.x == 0) {
        status.publish(0, gpu::TILE_INCLUSIVE, tile.count);
        tile_prefix = 0;
      }
    } else {
      if (threadIdx.x == 0) status.publish(b, gpu::TILE_AGGREGATE, tile.count);
      const unsigned long long prefix = gpu::warp_lookback_sparse(status, b, gpu::SumU64{});
      if (threadIdx.x == 0) {
        status.publish(b, gpu::TILE_INCLUSIVE, prefix + tile.count);
        tile_prefix = prefix;
      }
    }
  }
  tile.stage(storage, tiles, b);
  __syncthreads();  // the staged tile and the prefix are visible to the block
  const unsigned long long prefix = tile_prefix;
  if constexpr (PARTITION) {
    tile.write(storage, out, tiles, b, prefix);
  } else {
    // Element-wise: write_vectors (aligned 16-byte stores spliced with
    // shuffles) measured slower here (compact 50% 74.6% of copy against
    // 75.7%, unique 74.6% against 75.6% on the H100): this loop runs after
    // the look-back, on the critical path.
    for (unsigned i = threadIdx.x; i < tile.count; i += Tile::BLOCK)
      gpu::store_streaming(out + prefix + i, storage.items[i]);
  }
  if (threadIdx.x == 0 && b + 1 == tiles.count) *count = static_cast<std::int64_t>(prefix + tile.count);
}

// Workspace: [ tile counter (256 B) ][ status words ], zeroed by one
// cudaMemsetAsync at the start of every run (TILE_INVALID == 0).
constexpr std::size_t COUNTER_BYTES = gpu::align_workspace(sizeof(unsigned));

}  // namespace

void run_select_single_pass_early(const Call& call) {
  const Spec& s = call.spec;
  if (s.n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    using Tile = EarlyTile<T, MODE, PARTITION>;
    const SelectLaunch<T, Tile> l(call, "select_single_pass_early_kernel");
    const std::size_t slots = gpu::CountStatus::bytes(l.tiles.count);
    TESSERA_CUDA(cudaMemsetAsync(call.workspace, 0, COUNTER_BYTES + slots, call.stream));
    const gpu::CountStatus status(gpu::workspace_at<unsigned char>(call.workspace, COUNTER_BYTES), l.tiles.count);
    detail::launch("select_single_pass_early_kernel", select_single_pass_early_kernel<T, MODE, PARTITION>,
                   dim3(l.grid), dim3(Tile::BLOCK), 0, call.stream, s.n, static_cast<const T*>(call.in), call.flags,
                   static_cast<T*>(call.out), call.count, l.params, l.tiles, l.vec_in, l.vec_flags, status,
                   gpu::workspace_at<unsigned>(call.workspace, 0));
  });
}

std::size_t ws_select_single_pass_early(const Spec& s) {
  if (s.n == 0) return 0;
  std::size_t tiles = 0;
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    tiles = gpu::max_aligned_tiles<T>(s.n, EarlyTile<T, MODE, PARTITION>::TILE);
  });
  return COUNTER_BYTES + gpu::CountStatus::bytes(tiles);
}

bool supports_select_single_pass_early(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
