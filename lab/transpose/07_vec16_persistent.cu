// Lab rows vec16_persistent* (step 7, tuning) — persistent vec16 blocks: the
// next tile's loads are in flight while the current tile is written.
//
// What it changes over vec16_swizzle (same swizzled 16 KiB tile, same
// 16-byte accesses, same row-major tile order: vec16_tile.cuh): instead of
// one block per tile, a grid of as many blocks as fit on the device at once
// (at most MAX_BLOCKS_PER_SM per SM), block b moving tiles b, b + grid,
// b + 2 grid, ... (so the tiles moved at any moment are the same
// neighbourhood as in vec16_swizzle). After a tile is in shared memory and
// the barrier passed, the block issues the 16-byte loads of its next tile
// into registers and only then reads the tile back and writes it: the read
// stream never stops for the write half of a tile, which in the
// one-tile-per-block kernels happens only through other resident blocks.
// The grid is balanced: with R = ceil(tiles / resident) rounds, it has
// ceil(tiles / R) blocks, tile counts differing by at most one (8192 x 8192
// floats: 16384 tiles, 1024 blocks x 16 tiles exactly) and none is left
// alone at the end with a last round of its own.
//
// Why it should help the float 8192 x 8192 headline: floats move half the
// bytes of doubles per element, so a float transpose of the same matrix lasts
// half as long and every fixed cost — the ramp-up (all blocks load, nobody
// writes), the tail (the last wave of blocks, each waiting out two DRAM
// latencies, load then store), block launches — weighs twice as much. The
// float ladder's best trails a plain copy by ~4% of copy bandwidth where the
// double ladder's trails it by ~2%, as fixed costs would. A persistent,
// balanced grid has no block launches, no per-block serial load -> store
// latency chain once it runs, and a tail of one tile per block that all
// blocks reach together.
//
// How many blocks per SM: the H100 ladder says not all that fit. Bytes
// requested and not yet served (resident blocks x bytes in flight each): on
// 8192^2 floats unroll4 (1056 x 4 KiB, ~4 MiB) reached 91.1%, tile64_64x8
// (528 x 16 KiB, ~8 MiB) 92.9%, vec16_swizzle (1056 x 16 KiB, ~17 MiB)
// 91.9%; on doubles unroll2 (~4 MiB) 97.1% led unroll4 (~8 MiB) 96.4% and
// vec16 (~17 MiB) 93.8%. Past ~4-8 MiB (what Little's law asks at 3 TB/s
// and ~1.5 us of loaded latency) more requests only scatter DRAM rows. A
// persistent block keeps its 16 KiB in flight nearly all the time, so
// 4 blocks per SM (~8 MiB) was the candidate and 2 a neighbour. (8 would
// need <= 32 registers: ptxas spills at that cap.) The three configurations
// measured (cache hint x blocks per SM) are the sweep table of
// tuning_persistent.cuh, each with its result: all three lost 1.5-5 points
// of copy bandwidth to the one-tile-per-block kernels (predicted: 93.5-95 %
// on float 8192^2, measured 88-90 %). Calls off the 16-byte path
// (vec16_path false) run unroll4's padded tile, like vec16_swizzle; edge
// tiles go element by element, guarded.
#include <algorithm>
#include <cstddef>

#include <iterator>
#include <span>
#include <utility>

#include "core/kernel_resources.hpp"
#include "families/transpose/tile.cuh"
#include "tessera/blocks/device.cuh"
#include "transpose/lab_rungs.hpp"
#include "transpose/tuning_persistent.cuh"
#include "transpose/vec16_tile.cuh"

namespace tessera::transpose_impl {

namespace {

using gpu::CacheHint;
using gpu::Grid2D;

// HINT: the cache policy of every global access; MAX_BLOCKS_PER_SM: a cap on
// the resident blocks per SM the grid is sized for (the occupancy API gives
// the other cap).
template <CacheHint HINT_, int MAX_BLOCKS_PER_SM_>
struct PersistentPolicy {
  static constexpr CacheHint HINT = HINT_;
  static constexpr int MAX_BLOCKS_PER_SM = MAX_BLOCKS_PER_SM_;
  static_assert(MAX_BLOCKS_PER_SM >= 1 && MAX_BLOCKS_PER_SM <= 4,
                "more than 4 blocks of 256 per SM caps registers at 40 or fewer: ptxas spills");
};

// The input origin of tile `index` (row-major tile order).
struct Origin {
  std::size_t row0, col0;
};

template <class W>
__device__ __forceinline__ Origin origin_of(const Grid2D& g, unsigned index) {
  const gpu::TileIndex t = gpu::RowMajorOrder::tile_of(index, g.tiles_x, g.tiles_y);
  return {static_cast<std::size_t>(t.y) * gpu::Vec16Tile<W>::TR, static_cast<std::size_t>(t.x) * gpu::Vec16Tile<W>::TC};
}

// threadIdx.x, read anew where it is used. The tile loop's per-thread
// offsets (shared-memory indices of the swizzle, row offsets) all derive
// from the thread index; read once, nvcc hoists every one of them out of the
// loop and keeps them in registers: 117 per thread for floats, 2 blocks per
// SM (and spills once capped at 64 by __launch_bounds__). An asm volatile
// read cannot be hoisted, so they are recomputed per tile: a few integer
// instructions per 16-byte access, in a kernel that waits on DRAM.
__device__ __forceinline__ int thread_index() {
  unsigned t;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
  return static_cast<int>(t);
}

// Block b moves tiles b, b + gridDim.x, ... (gridDim.x <= tiles: at least
// one each). __launch_bounds__ asks for MAX_BLOCKS_PER_SM resident blocks (a
// register cap: 64 at 4, used 62-63, no spills in the ptxas report; 128 at
// 2, used 62-76).
template <class W, class P>
__global__ __launch_bounds__(gpu::Vec16Tile<W>::THREADS, P::MAX_BLOCKS_PER_SM) void transpose_vec16_persistent_kernel(
    const W* __restrict__ in, W* __restrict__ out, Grid2D g) {
  using T = gpu::Vec16Tile<W>;
  __shared__ alignas(16) W tile[T::TR * T::TC];
  const unsigned tiles = g.tiles_x * g.tiles_y;  // <= INT_MAX (make_grid)

  // Everything that decides a branch below is block-uniform (blockIdx, the
  // grid, the matrix), so every barrier is reached by the whole block.
  unsigned index = blockIdx.x;
  Origin cur = origin_of<W>(g, index);
  bool in_regs = gpu::interior<W>(g, cur.row0, cur.col0);  // v holds tile `index`
  gpu::Chunk<W> v[T::PER_THREAD];
  if (in_regs) gpu::load_chunks<P::HINT>(in, g, cur.row0, cur.col0, thread_index(), v);

  for (;;) {
    const bool interior = in_regs;
    if (interior) gpu::stash_chunks<W>(tile, thread_index(), v);
    else gpu::load_edge(in, tile, g, cur.row0, cur.col0, thread_index());
    __syncthreads();

    // The next tile's loads go out before this tile's stores. index < tiles
    // <= INT_MAX and gridDim.x <= INT_MAX: the sum fits 32 bits.
    const unsigned next = index + gridDim.x;
    const bool more = next < tiles;
    Origin nxt{0, 0};
    in_regs = false;
    if (more) {
      nxt = origin_of<W>(g, next);
      in_regs = gpu::interior<W>(g, nxt.row0, nxt.col0);
      if (in_regs) gpu::load_chunks<P::HINT>(in, g, nxt.row0, nxt.col0, thread_index(), v);
    }

    if (interior) gpu::write_chunks<P::HINT>(tile, out, g, cur.row0, cur.col0, thread_index());
    else gpu::write_edge(tile, out, g, cur.row0, cur.col0, thread_index());
    if (!more) break;
    __syncthreads();  // every read of `tile` above precedes the next stash into it
    index = next;
    cur = nxt;
  }
}

// Blocks of a balanced persistent grid over `tiles` tiles with at most
// `resident` blocks: R = ceil(tiles / resident) rounds, ceil(tiles / R)
// blocks, so the blocks' tile counts differ by at most one and the last
// round is as full as R rounds allow (16384 tiles on 528 resident blocks:
// 512 blocks x 32 tiles, where a grid of 528 would leave 16 blocks alone
// in a 32nd round). 1 <= result <= tiles.
unsigned balanced_grid(unsigned tiles, std::size_t resident) {
  const std::size_t cap = std::max<std::size_t>(resident, 1);
  const std::size_t rounds = detail::div_up(tiles, cap);
  return static_cast<unsigned>(detail::div_up(tiles, rounds));
}

// The fallback off the 16-byte path: unroll4's padded tile.
using FallbackTile = gpu::TilePolicy<32, 8, 1>;

template <class P>
void run_persistent(const char* kernel, const char* fallback, const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  if (!vec16_path(call)) {
    gpu::run_tile<FallbackTile>(fallback, call);
    return;
  }
  gpu::with_word(s, kernel, [&]<class W>() {
    using T = gpu::Vec16Tile<W>;
    const Grid2D g = gpu::make_grid(s, T::TR, T::TC, kernel);
    const auto k = transpose_vec16_persistent_kernel<W, P>;
    const int fit = tessera::gpu::resident_blocks_per_sm(reinterpret_cast<const void*>(k), T::THREADS, 0, kernel);
    const std::size_t resident =
        static_cast<std::size_t>(tessera::gpu::sm_count()) * static_cast<std::size_t>(std::min(fit, P::MAX_BLOCKS_PER_SM));
    detail::launch(kernel, k, dim3(balanced_grid(gpu::blocks_of(g), resident)), dim3(T::THREADS), 0, call.stream,
                   s.rows * s.cols, static_cast<const W*>(call.in), static_cast<W*>(call.out), g);
  });
}

// Row I of the sweep table: its policy, its kernel's name.
struct PersistentSweep {
  static constexpr const auto& TABLE = tuning::PERSISTENT_SWEEP;
  template <std::size_t I>
  static void run(const TransposeCall& call) {
    constexpr tuning::PersistentTuning t = TABLE[I];
    run_persistent<PersistentPolicy<t.hint, t.max_blocks_per_sm>>(t.kernel, t.fallback, call);
  }
};

}  // namespace

std::span<const TransposeVariant> persistent_rows() {
  static const auto rows = sweep_rows<PersistentSweep>(7, std::make_index_sequence<std::size(PersistentSweep::TABLE)>{});
  return rows;
}

}  // namespace tessera::transpose_impl
