// Compact / partition / unique step 4 — tessera's: one pass with decoupled
// look-back (the scan ladder's step 9, applied to compaction).
//
// What it changes over step 3 (two_pass): the input is read once. Each block
// takes the next tile from an atomic counter, loads it with 16-byte vectors,
// ranks its selected elements with one SWAR block scan, publishes the tile's
// count at once (status A), stages the elements in shared memory in output
// order, and one warp looks back over the predecessors' published counts
// (lookback.cuh: TileStatus of 64-bit counts, one 16-byte {flag, count} slot
// per tile, warp_lookback) for the number selected before the tile; it
// publishes the inclusive count (status P), and the block writes its elements
// with coalesced stores. The last tile writes the total count to the device. No
// flag array, no second read, no host synchronisation.
//
// Bytes: the input once, the selected elements once (partition: all n), one
// 8-byte word per tile of status. Bottleneck: DRAM bandwidth, plus the
// look-back latency of each tile, hidden by the other resident blocks.
// Expected (H100, 2^28 floats, 50% selected): 85-90% of the copy bandwidth
// on the cost model (input + selected output), >= 1.1x cub::DeviceSelect::If
// (76% of copy): CUB's select moves the same bytes; the gain is 16-byte
// loads, one scan per tile instead of per item block, and the look-back
// overlapping the staging.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/launch.cuh"
#include "cuda/common/lookback.cuh"
#include "cuda/common/multipass.cuh"
#include "cuda/compose/select_dispatch.cuh"
#include "patterns/compose_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

using gpu::SelectMode;
using gpu::SelectPolicy;
using Counts = gpu::TileStatus<unsigned long long>;  // per tile: {flag, selected count}

template <class T, SelectMode MODE, bool PARTITION>
__global__ __launch_bounds__(SelectPolicy::BLOCK_THREADS) void select_single_pass_kernel(
    const T* __restrict__ in, const std::uint8_t* __restrict__ flags, T* __restrict__ out,
    std::int64_t* __restrict__ count, gpu::SelectParams<T> params, gpu::AlignedTiles tiles, bool vec_in,
    bool vec_flags, Counts status, unsigned* __restrict__ tile_counter) {
  using Tile = gpu::SelectTile<T, MODE, PARTITION>;
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
        b == 0 ? 0ull : gpu::warp_lookback<SelectPolicy::LOOKBACK_PER_LANE>(status, b, gpu::SumU64{});
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

// Workspace: [ tile counter (256 B) ][ Counts slots ], zeroed by one
// cudaMemsetAsync at the start of every run (TILE_INVALID == 0).
constexpr std::size_t COUNTER_BYTES = gpu::align_workspace(sizeof(unsigned));

}  // namespace

void run_select_single_pass(const Call& call) {
  const Spec& s = call.spec;
  const std::size_t n = s.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    const SelectLaunch<T, gpu::SelectTile<T, MODE, PARTITION>> l(call, "select_single_pass_kernel");
    const std::size_t slots = Counts::bytes(l.tiles.count);
    TESSERA_CUDA(cudaMemsetAsync(call.workspace, 0, COUNTER_BYTES + slots, call.stream));
    const Counts status(gpu::workspace_at<unsigned char>(call.workspace, COUNTER_BYTES), l.tiles.count);
    detail::launch("select_single_pass_kernel", select_single_pass_kernel<T, MODE, PARTITION>, dim3(l.grid),
                   dim3(SelectPolicy::BLOCK_THREADS), 0, call.stream, n, static_cast<const T*>(call.in), call.flags,
                   static_cast<T*>(call.out), call.count, l.params, l.tiles, l.vec_in, l.vec_flags, status,
                   gpu::workspace_at<unsigned>(call.workspace, 0));
  });
}

std::size_t ws_select_single_pass(const Spec& s) {
  if (s.n == 0) return 0;
  return COUNTER_BYTES + Counts::bytes(select_tiles_bound(s));
}

bool supports_select_single_pass(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
