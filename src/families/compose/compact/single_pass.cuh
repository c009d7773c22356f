// The one-pass select kernel (compact, partition, unique): decoupled look-back
// over tile counts (the scan ladder's look-back, applied to compaction), one
// kernel tuned by a policy. The product instantiates the policy the tuning
// sweep chose (04_single_pass.cu, single_pass_wide); the sweep's other
// policies are the lab's (lab/compose/select_single_pass_sweep.cu).
//
// What it changes over step 3 (two_pass): the input is read once. Each block
// takes the next tile from an atomic counter, loads it with 16-byte vectors,
// ranks its selected elements with one SWAR block scan, publishes the tile's
// count at once (status A), stages the elements in shared memory in output
// order, and one warp looks back over the predecessors' published counts
// (lookback.cuh's warp_lookback over the policy's status view) for the
// number selected before the tile; it publishes the inclusive count (status
// P), and the block writes its elements with coalesced stores. The last tile
// writes the total count to the device. No flag array, no second read, no
// host synchronisation.
//
// Bytes: the input once, the selected elements once (partition: all n), one
// status word per tile. Bottleneck: DRAM bandwidth, plus the look-back
// latency of each tile, hidden by the other resident blocks.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "families/compose/count_status.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "families/compose/select_dispatch.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl::select_single_pass {

// A point of the tuning sweep: the tile shape, the look-back window, the
// register cap and the status view (TileStatus<uint64>: 16-byte
// {flag, count} slots; gpu::CountStatus: 8-byte count << 2 | flag words).
template <int BLOCK_THREADS_, int VECS_, int LOOKBACK_PER_LANE_, int MIN_BLOCKS_, class Status_>
struct Policy {
  static constexpr int BLOCK_THREADS = BLOCK_THREADS_;
  static constexpr int VECS = VECS_;                            // 16-byte vectors per thread per tile
  static constexpr int LOOKBACK_PER_LANE = LOOKBACK_PER_LANE_;  // predecessors per lane per look-back round
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;                // __launch_bounds__ blocks per SM (register cap)
  using Status = Status_;                                       // per tile: {flag, selected count}
  static_assert(MIN_BLOCKS >= 1 && MIN_BLOCKS * BLOCK_THREADS <= 2048, "MIN_BLOCKS: blocks an sm_90 SM can hold");
};

template <class T, gpu::SelectMode MODE, bool PARTITION, class P>
using TileOf = gpu::SelectTile<T, MODE, PARTITION, P>;

template <class T, gpu::SelectMode MODE, bool PARTITION, class P>
__global__ __launch_bounds__(P::BLOCK_THREADS, P::MIN_BLOCKS) void select_single_pass_kernel(
    const T* __restrict__ in, const std::uint8_t* __restrict__ flags, T* __restrict__ out,
    std::int64_t* __restrict__ count, gpu::SelectParams<T> params, gpu::AlignedTiles tiles, bool vec_in,
    bool vec_flags, typename P::Status status, unsigned* __restrict__ tile_counter) {
  using Tile = TileOf<T, MODE, PARTITION, P>;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned tile_slot;
  __shared__ unsigned long long tile_prefix;

  // Tiles in the order blocks start: every tile this one waits for is running.
  const unsigned b = gpu::take_tile_index(tile_counter, tile_slot);

  Tile tile;
  tile.load(in, flags, params, tiles, b, vec_in && tiles.full(b), vec_flags);
  tile.rank(storage);  // block scan: a barrier inside; every thread has tile.count after it
  // Publish the count at once (tile 0: its inclusive prefix), so that the
  // successors' look-backs need not wait for this tile's staging.
  if (threadIdx.x == 0) status.publish(b, b == 0 ? gpu::TILE_INCLUSIVE : gpu::TILE_AGGREGATE, tile.count);
  tile.stage(storage, tiles, b);
  if (threadIdx.x < 32) {  // warp 0 looks back while the other warps finish staging
    const unsigned long long prefix =
        b == 0 ? 0ull : gpu::warp_lookback<P::LOOKBACK_PER_LANE>(status, b, gpu::SumU64{});
    if (threadIdx.x == 0) {
      if (b > 0) status.publish(b, gpu::TILE_INCLUSIVE, prefix + tile.count);
      tile_prefix = prefix;
    }
  }
  __syncthreads();  // the staged tile and the prefix are visible to the block
  const unsigned long long prefix = tile_prefix;
  tile.write(storage, out, tiles, b, prefix);
  if (threadIdx.x == 0 && b + 1 == tiles.count) *count = static_cast<std::int64_t>(prefix + tile.count);
}

// Workspace: [ tile counter (256 B) ][ status slots ], zeroed by one
// cudaMemsetAsync at the start of every run (TILE_INVALID == 0).
inline constexpr std::size_t COUNTER_BYTES = gpu::align_workspace(sizeof(unsigned));

template <class P>
void run(const Call& call) {
  const Spec& s = call.spec;
  const std::size_t n = s.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_select(s, [&]<class T, gpu::SelectMode MODE, bool PARTITION>() {
    const SelectLaunch<T, TileOf<T, MODE, PARTITION, P>> l(call, "select_single_pass_kernel");
    const std::size_t slots = P::Status::bytes(l.tiles.count);
    TESSERA_CUDA(cudaMemsetAsync(call.workspace, 0, COUNTER_BYTES + slots, call.stream));
    const typename P::Status status(gpu::workspace_at<unsigned char>(call.workspace, COUNTER_BYTES), l.tiles.count);
    detail::launch("select_single_pass_kernel", select_single_pass_kernel<T, MODE, PARTITION, P>, dim3(l.grid),
                   dim3(P::BLOCK_THREADS), 0, call.stream, n, static_cast<const T*>(call.in), call.flags,
                   static_cast<T*>(call.out), call.count, l.params, l.tiles, l.vec_in, l.vec_flags, status,
                   gpu::workspace_at<unsigned>(call.workspace, 0));
  });
}

template <class P>
std::size_t workspace_bytes(const Spec& s) {
  if (s.n == 0) return 0;
  std::size_t tiles = 0;
  dispatch_select(s, [&]<class T, gpu::SelectMode MODE, bool PARTITION>() {
    tiles = gpu::max_aligned_tiles<T>(s.n, TileOf<T, MODE, PARTITION, P>::TILE);
  });
  return COUNTER_BYTES + P::Status::bytes(tiles);
}

}  // namespace tessera::compose_impl::select_single_pass
