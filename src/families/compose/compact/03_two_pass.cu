// Compact / partition / unique step 3 — two passes over the input, no flag
// array (seed 000 "Prefix sum", the hierarchical scan: scan blocks, scan the
// block sums, add back — here with the per-element scan moved inside the
// tiles).
//
// What it changes over step 2 (flags_scan_scatter): the flags never go
// through memory. Pass 1 reads each tile and writes only its selected count;
// tessera's exclusive scan turns the tile counts into tile offsets; pass 2
// reads each tile again, ranks its elements with one SWAR block scan
// (gpu::SelectTile, 16-byte loads) and writes them at the tile's offset via
// shared memory, coalesced. The last tile writes the count.
//
// Bytes: the input twice, the output once, 16 bytes per 4096-element tile.
// Bottleneck: the second read. Expected (H100, 2^28 floats, 50% selected):
// about 60% of the copy bandwidth on the cost model (input + output), i.e.
// ~2x step 2.
#include <cuda_runtime.h>

#include <cstdint>

#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/exclusive_sum.cuh"
#include "families/compose/select_dispatch.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

using gpu::SelectMode;
using gpu::SelectPolicy;

template <class T, SelectMode MODE, bool PARTITION>
__global__ __launch_bounds__(SelectPolicy::BLOCK_THREADS) void select_tile_count_kernel(
    const T* __restrict__ in, const std::uint8_t* __restrict__ flags, gpu::SelectParams<T> params,
    gpu::AlignedTiles tiles, bool vec_in, bool vec_flags, std::int64_t* __restrict__ tile_counts) {
  using Tile = gpu::SelectTile<T, MODE, PARTITION>;
  __shared__ typename Tile::Storage storage;
  const std::size_t b = blockIdx.x;
  Tile tile;
  tile.load(in, flags, params, tiles, b, vec_in && tiles.full(b), vec_flags);
  tile.rank(storage);
  if (threadIdx.x == 0) tile_counts[b] = tile.count;
}

template <class T, SelectMode MODE, bool PARTITION>
__global__ __launch_bounds__(SelectPolicy::BLOCK_THREADS) void select_tile_scatter_kernel(
    const T* __restrict__ in, const std::uint8_t* __restrict__ flags, T* __restrict__ out,
    std::int64_t* __restrict__ count, gpu::SelectParams<T> params, gpu::AlignedTiles tiles, bool vec_in,
    bool vec_flags, const std::int64_t* __restrict__ tile_offsets) {
  using Tile = gpu::SelectTile<T, MODE, PARTITION>;
  __shared__ typename Tile::Storage storage;
  const std::size_t b = blockIdx.x;
  Tile tile;
  tile.load(in, flags, params, tiles, b, vec_in && tiles.full(b), vec_flags);
  tile.rank(storage);
  tile.stage(storage, tiles, b);
  __syncthreads();  // staged tile visible to the whole block
  const auto prefix = static_cast<unsigned long long>(tile_offsets[b]);
  tile.write(storage, out, tiles, b, prefix);
  if (threadIdx.x == 0 && b + 1 == tiles.count) *count = static_cast<std::int64_t>(prefix + tile.count);
}

// Workspace: [ tile counts ][ tile offsets ][ scan workspace ].
struct Layout {
  std::size_t tiles, counts, offsets, scan, scan_bytes, total;
};

Layout layout_for(const Spec& s) {
  Layout l{};
  l.tiles = select_tiles_bound(s);
  l.counts = 0;
  l.offsets = gpu::align_workspace(l.tiles * sizeof(std::int64_t));
  l.scan = l.offsets + gpu::align_workspace(l.tiles * sizeof(std::int64_t));
  l.scan_bytes = gpu::exclusive_sum_workspace<std::int64_t>(l.tiles);
  l.total = l.scan + gpu::align_workspace(l.scan_bytes);
  return l;
}

}  // namespace

void run_select_two_pass(const Call& call) {
  const Spec& s = call.spec;
  const std::size_t n = s.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  const Layout l = layout_for(s);
  dispatch_select(s, [&]<class T, SelectMode MODE, bool PARTITION>() {
    const SelectLaunch<T, gpu::SelectTile<T, MODE, PARTITION>> sl(call, "select_tile_count_kernel");
    const T* in = static_cast<const T*>(call.in);
    auto* counts = gpu::workspace_at<std::int64_t>(call.workspace, l.counts);
    auto* offsets = gpu::workspace_at<std::int64_t>(call.workspace, l.offsets);
    detail::launch("select_tile_count_kernel", select_tile_count_kernel<T, MODE, PARTITION>, dim3(sl.grid),
                   dim3(SelectPolicy::BLOCK_THREADS), 0, call.stream, n, in, call.flags, sl.params, sl.tiles, sl.vec_in,
                   sl.vec_flags, counts);
    gpu::exclusive_sum(counts, offsets, sl.tiles.count, gpu::workspace_at<void>(call.workspace, l.scan), l.scan_bytes,
                       call.stream);
    detail::launch("select_tile_scatter_kernel", select_tile_scatter_kernel<T, MODE, PARTITION>, dim3(sl.grid),
                   dim3(SelectPolicy::BLOCK_THREADS), 0, call.stream, n, in, call.flags, static_cast<T*>(call.out),
                   call.count, sl.params, sl.tiles, sl.vec_in, sl.vec_flags, offsets);
  });
}

std::size_t ws_select_two_pass(const Spec& s) { return s.n == 0 ? 0 : layout_for(s).total; }

bool supports_select_two_pass(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
