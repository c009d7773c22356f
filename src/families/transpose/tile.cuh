// Building blocks of the CUDA transpose rungs:
//   - Grid2D: the kernel's view of the problem (64-bit sizes and pitches) and
//     the tile grid, launched as a 1-D grid of tiles (grid.x reaches 2^31 - 1
//     where grid.y stops at 65535: an N x 1 matrix of 2^31 elements needs
//     2^26 tiles down one column);
//   - RowMajorOrder: which tile a block moves (a policy type: the lab tries
//     other orders);
//   - transpose_tile_kernel<W, Policy>: the shared-memory tile transpose of
//     steps 3-6, one kernel template whose policy (tile size, block rows,
//     padding, tile order) is each rung's only difference;
//   - with_word: the element type as the 4- or 8-byte word the kernels move
//     (a transpose never looks at the values).
// Everything is enqueued on the call's stream through detail::launch (checked).
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/blocks/launch.cuh"
#include "families/transpose/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::transpose_impl::gpu {

// ---- the problem as a kernel sees it -----------------------------------------

// A grid of tiles over the input: tiles_x across its columns, tiles_y down its
// rows, each tile tile_rows x tile_cols input elements. One block per tile.
struct Grid2D {
  std::size_t rows, cols;      // of the input
  std::size_t ld_in, ld_out;   // pitches in elements
  unsigned tiles_x, tiles_y;   // tiles_x * tiles_y <= INT_MAX
};

// The tile grid of `spec` for tiles of tile_rows x tile_cols input elements;
// throws Error when it needs more blocks than grid.x allows.
inline Grid2D make_grid(const TransposeSpec& s, std::size_t tile_rows, std::size_t tile_cols, const char* kernel) {
  const std::size_t tx = detail::div_up(s.cols, tile_cols), ty = detail::div_up(s.rows, tile_rows);
  if (tx > static_cast<std::size_t>(INT_MAX) || ty > static_cast<std::size_t>(INT_MAX) / tx)
    throw Error("tessera: " + std::string(kernel) + " needs " + std::to_string(tx) + " x " + std::to_string(ty) +
                " tiles for a " + std::to_string(s.rows) + " x " + std::to_string(s.cols) +
                " matrix (grid.x limit " + std::to_string(INT_MAX) + ")");
  return {s.rows, s.cols, s.ld_in, s.ld_out, static_cast<unsigned>(tx), static_cast<unsigned>(ty)};
}

inline unsigned blocks_of(const Grid2D& g) { return g.tiles_x * g.tiles_y; }

// ---- which tile a block moves ------------------------------------------------

struct TileIndex {
  unsigned x;  // tile column (input columns x * tile_cols ...)
  unsigned y;  // tile row (input rows y * tile_rows ...)
};

// A tile order maps a block index to the tile it moves (static
// tile_of(block, tiles_x, tiles_y)). The product's rungs walk the tiles in
// row-major order; the lab tries others (lab/transpose/grouped_order.cuh).
struct RowMajorOrder {
  static __device__ __forceinline__ TileIndex tile_of(unsigned block, unsigned tiles_x, unsigned /*tiles_y*/) {
    return {block % tiles_x, block / tiles_x};
  }
};

// ---- the shared-memory tile transpose (steps 3-6) ----------------------------

// A TILE x TILE tile moved by a TILE x BLOCK_ROWS block: each thread moves
// TILE / BLOCK_ROWS elements, rows BLOCK_ROWS apart. Tiles are square, so
// the same block shape reads the input tile (rows of the input) and writes
// the output tile (rows of the output). PAD elements pad every tile row.
template <int TILE_, int BLOCK_ROWS_, int PAD_, class ORDER_ = RowMajorOrder>
struct TilePolicy {
  static constexpr int TILE = TILE_, BLOCK_ROWS = BLOCK_ROWS_, PAD = PAD_;
  using Order = ORDER_;
  static_assert(TILE % 32 == 0 || TILE == 16, "TILE: 16 or a multiple of the warp size");
  static_assert(TILE % BLOCK_ROWS == 0, "BLOCK_ROWS must divide TILE");
  static_assert(TILE * BLOCK_ROWS <= 1024, "at most 1024 threads per block");
  static_assert(PAD == 0 || PAD == 1, "PAD: 0 (bank conflicts) or 1 element");
};

template <class W, class P>
__global__ __launch_bounds__(P::TILE* P::BLOCK_ROWS) void transpose_tile_kernel(const W* __restrict__ in,
                                                                               W* __restrict__ out, Grid2D g) {
  constexpr int ITEMS = P::TILE / P::BLOCK_ROWS;
  __shared__ W tile[P::TILE][P::TILE + P::PAD];

  const TileIndex t = P::Order::tile_of(blockIdx.x, g.tiles_x, g.tiles_y);
  const std::size_t row0 = static_cast<std::size_t>(t.y) * P::TILE;
  const std::size_t col0 = static_cast<std::size_t>(t.x) * P::TILE;
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  // Interior tiles (all but the right and bottom edges) need no bounds test:
  // their ITEMS loads are issued back to back, all in flight together.
  const bool full = row0 + P::TILE <= g.rows && col0 + P::TILE <= g.cols;

  // Load: a warp reads consecutive elements of one input row (coalesced) and
  // stores them along one tile row (consecutive banks).
  const std::size_t src = (row0 + ty) * g.ld_in + col0 + tx;
  const std::size_t src_step = static_cast<std::size_t>(P::BLOCK_ROWS) * g.ld_in;
  if (full) {
    W v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) v[k] = in[src + k * src_step];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) tile[ty + k * P::BLOCK_ROWS][tx] = v[k];
  } else if (col0 + tx < g.cols) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (row0 + ty + k * P::BLOCK_ROWS < g.rows) tile[ty + k * P::BLOCK_ROWS][tx] = in[src + k * src_step];
  }
  __syncthreads();

  // Store: a warp writes consecutive elements of one output row (coalesced),
  // reading them down one tile column: TILE + PAD words apart, so with
  // PAD = 0 all 32 lanes hit the same bank (a 32-way conflict), with PAD = 1
  // 32 different banks.
  const std::size_t dst = (col0 + ty) * g.ld_out + row0 + tx;
  const std::size_t dst_step = static_cast<std::size_t>(P::BLOCK_ROWS) * g.ld_out;
  if (full) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) out[dst + k * dst_step] = tile[tx][ty + k * P::BLOCK_ROWS];
  } else if (row0 + tx < g.rows) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (col0 + ty + k * P::BLOCK_ROWS < g.cols) out[dst + k * dst_step] = tile[tx][ty + k * P::BLOCK_ROWS];
  }
}

// ---- host side ---------------------------------------------------------------

// f.template operator()<W>() with W the word of the element size: int32_t for
// 4-byte types, int64_t for 8-byte ones; anything else throws.
template <class F>
void with_word(const TransposeSpec& s, const char* variant, F&& f) {
  switch (size_of(s.dtype)) {
    case 4: f.template operator()<std::int32_t>(); return;
    case 8: f.template operator()<std::int64_t>(); return;
    default:
      throw Error("tessera: transpose variant '" + std::string(variant) + "' does not support " +
                  std::string(to_string(s.dtype)) + " (4- and 8-byte element types only)");
  }
}

// Enqueues the tile transpose of policy P for `call` (nothing for an empty
// matrix).
template <class P>
void run_tile(const char* kernel, const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  const Grid2D g = make_grid(s, P::TILE, P::TILE, kernel);
  with_word(s, kernel, [&]<class W>() {
    detail::launch(kernel, transpose_tile_kernel<W, P>, dim3(blocks_of(g)), dim3(P::TILE, P::BLOCK_ROWS), 0,
                   call.stream, s.rows * s.cols, static_cast<const W*>(call.in), static_cast<W*>(call.out), g);
  });
}

}  // namespace tessera::transpose_impl::gpu
