// The tile shapes of the CUDA rungs (named here, next to nothing CUDA, so
// that the cost model can do the seed's reduction-ratio arithmetic with the
// same numbers the kernels use), and that arithmetic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "families/convolution/contract.hpp"

namespace tessera::convolution_impl::tiles {

// One thread per output (basic, constant mask, strategies 1 and 3): 2D
// blocks of 32 x 8 (a warp along a row: coalesced, 256 threads so that 8
// blocks fill an sm_90 SM); 1D blocks of 256.
constexpr int BX_2D = 32, BY_2D = 8;
constexpr int BX_1D = 256;
// Strategy 2, one thread per *input* element of the tile: 32 x 32 (2D) and
// 1024 (1D) threads, the largest blocks, so that the fewest threads idle.
constexpr int IX_2D = 32, IY_2D = 32;
constexpr int IX_1D = 1024;
// Register blocking: each thread keeps OUT_PER_THREAD accumulators. 2D: 32 x 8
// threads, 8 outputs down a column each: a 32 x 64 output tile. 1D: 256
// threads, OUT_PER_THREAD_1D = 16 consecutive outputs each (4,096 outputs per
// block): a 32-value window in registers serves 16 taps x 16 outputs, 0.19
// shared loads per FMA (8 outputs would give 0.375, over the 1 : 4 ratio at
// which the shared-memory pipe limits the FMA pipe).
constexpr int OUT_PER_THREAD = 8;
constexpr int OUT_PER_THREAD_1D = 16;
// The constant-memory mask (rungs 3-6): 8,192 floats = 32 KB of the 64 KB
// constant bank.
constexpr std::size_t CONST_TAPS = 8192;
// Dynamic shared memory a rung may use without an opt-in.
constexpr std::size_t SMEM_LIMIT = 48 * 1024;

struct Tile {
  std::size_t x, y;
};

// The output tile of a rung (strategy 2: its input tile) for this spec.
inline Tile output_tile(bool one_d) { return one_d ? Tile{BX_1D, 1} : Tile{BX_2D, BY_2D}; }
inline Tile register_tile(bool one_d) {
  return one_d ? Tile{std::size_t(BX_1D) * OUT_PER_THREAD_1D, 1} : Tile{BX_2D, std::size_t(BY_2D) * OUT_PER_THREAD};
}
inline Tile input_block(bool one_d) { return one_d ? Tile{IX_1D, 1} : Tile{IX_2D, IY_2D}; }

// Shared floats of a tile plus its halo.
inline std::size_t halo_tile_floats(Tile t, const ConvSpec& s) { return (t.x + 2 * s.rx()) * (t.y + 2 * s.ry()); }

// The seed's reduction-ratio arithmetic for an interior tile: global loads
// issued per output, and (strategy 3) reads of halo elements that go to L2
// instead of shared memory. The naive kernel loads every tap: taps() per
// output; the ratio of a tiling is taps() / loads_per_output.
struct LoadCount {
  double loads_per_output = 0;
  double l2_halo_per_output = 0;
};

inline LoadCount tile_loads(const ConvSpec& s, Tile out) {
  const double t = double(out.x) * double(out.y);
  return {double(out.x + 2 * s.rx()) * double(out.y + 2 * s.ry()) / t, 0};
}

// Strategy 2: the block loads its input tile once and produces the part of
// it that has all its neighbours in the tile.
inline LoadCount input_block_loads(const ConvSpec& s, Tile in) {
  const double ox = double(in.x) - 2.0 * double(s.rx()), oy = double(in.y) - 2.0 * double(s.ry());
  if (ox <= 0 || oy <= 0) return {0, 0};
  return {double(in.x) * double(in.y) / (ox * oy), 0};
}

// Strategy 3: one load per output into shared memory; every (output, tap)
// pair whose input lies outside the tile reads it through L2.
inline LoadCount interior_loads(const ConvSpec& s, Tile out) {
  double halo = 0;
  const auto rx = std::ptrdiff_t(s.rx()), ry = std::ptrdiff_t(s.ry());
  const auto tx = std::ptrdiff_t(out.x), ty = std::ptrdiff_t(out.y);
  for (std::ptrdiff_t dy = -ry; dy <= ry; ++dy)
    for (std::ptrdiff_t dx = -rx; dx <= rx; ++dx) {
      const std::ptrdiff_t inside = std::max<std::ptrdiff_t>(0, tx - std::abs(dx)) *
                                    std::max<std::ptrdiff_t>(0, ty - std::abs(dy));
      halo += double(tx * ty - inside);
    }
  return {1.0, halo / (double(tx) * double(ty))};
}

}  // namespace tessera::convolution_impl::tiles
