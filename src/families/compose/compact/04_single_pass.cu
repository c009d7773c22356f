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

#include "tessera/blocks/launch.cuh"
#include "families/compose/count_status.cuh"
#include "tessera/blocks/lookback.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/select_dispatch.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

using gpu::SelectMode;

// The single-pass tuning family (tuning as data: one kernel, three registered
// policies, compared in one bench run). Provenance of the primary: the scan's
// look-back policy (256 x 4 vectors, 4 predecessors per lane) and 16-byte
// status slots of 64-bit counts. The alternatives attack what the H100 bench
// showed (single_pass at 65% of copy while two_pass's scatter pass, the same
// tile code without look-back, runs at ~copy speed): the per-tile look-back.
//   lean: 8-byte status words (CountStatus: half the L2 bytes per poll),
//         2 predecessors per lane (64 x 8 B = 512 B per poll instead of
//         128 x 16 B = 2 KiB), and a 32-register cap for 8 resident blocks
//         per SM (the scatter pass's occupancy; the primary's 40 registers
//         give 6);
//   wide: the lean look-back with 512-thread tiles (32 KiB of input per
//         tile): half the tiles, so half the look-backs, atomics and status
//         polls per byte, and each look-back window covers twice the input.
//         (CUB's sm_90 select tiles are of that size: 384 x 17 4-byte keys,
//         384 x 11 8-byte keys.)
// Expected (H100, 2^28 floats, 50% selected; CUB at 77% of copy): lean
// 75-82% of copy (~1.0-1.05x CUB), wide 80-87% (~1.05-1.12x CUB), the int64
// problems gaining most (their primary tiles hold only 2048 keys). Partition
// and int64 unique spill 20-24 bytes under the 32-register cap (outside the
// load loop); compact and 4-byte unique do not.
template <int BLOCK_THREADS_, int VECS_, int LOOKBACK_PER_LANE_, int MIN_BLOCKS_, class Status_>
struct SinglePassPolicy {
  static constexpr int BLOCK_THREADS = BLOCK_THREADS_;
  static constexpr int VECS = VECS_;                            // 16-byte vectors per thread per tile
  static constexpr int LOOKBACK_PER_LANE = LOOKBACK_PER_LANE_;  // predecessors per lane per look-back round
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;                // __launch_bounds__ blocks per SM (register cap)
  using Status = Status_;                                       // per tile: {flag, selected count}
  static_assert(MIN_BLOCKS >= 1 && MIN_BLOCKS * BLOCK_THREADS <= 2048, "MIN_BLOCKS: blocks an sm_90 SM can hold");
};

// The primary keeps the 40 registers (6 blocks per SM) it had when it was
// measured: without a minimum-blocks bound ptxas took 40; an explicit bound
// of 1 lets it grow to 55.
using PrimaryPolicy = SinglePassPolicy<gpu::SelectPolicy::BLOCK_THREADS, gpu::SelectPolicy::VECS,
                                       gpu::SelectPolicy::LOOKBACK_PER_LANE, 6, gpu::TileStatus<unsigned long long>>;
using LeanPolicy = SinglePassPolicy<256, 4, 2, 8, gpu::CountStatus>;
using WidePolicy = SinglePassPolicy<512, 4, 2, 4, gpu::CountStatus>;

template <class T, SelectMode MODE, bool PARTITION, class P>
using TileOf = gpu::SelectTile<T, MODE, PARTITION, P>;

template <class T, SelectMode MODE, bool PARTITION, class P>
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
constexpr std::size_t COUNTER_BYTES = gpu::align_workspace(sizeof(unsigned));

template <class P>
void run_with(const Call& call) {
  const Spec& s = call.spec;
  const std::size_t n = s.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
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
std::size_t ws_with(const Spec& s) {
  if (s.n == 0) return 0;
  std::size_t tiles = 0;
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    tiles = gpu::max_aligned_tiles<T>(s.n, TileOf<T, MODE, PARTITION, P>::TILE);
  });
  return COUNTER_BYTES + P::Status::bytes(tiles);
}

}  // namespace

void run_select_single_pass(const Call& call) { run_with<PrimaryPolicy>(call); }
std::size_t ws_select_single_pass(const Spec& s) { return ws_with<PrimaryPolicy>(s); }
bool supports_select_single_pass(const Spec& s) { return is_select_family(s); }

void run_select_single_pass_lean(const Call& call) { run_with<LeanPolicy>(call); }
std::size_t ws_select_single_pass_lean(const Spec& s) { return ws_with<LeanPolicy>(s); }
bool supports_select_single_pass_lean(const Spec& s) { return is_select_family(s); }

void run_select_single_pass_wide(const Call& call) { run_with<WidePolicy>(call); }
std::size_t ws_select_single_pass_wide(const Spec& s) { return ws_with<WidePolicy>(s); }
bool supports_select_single_pass_wide(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
