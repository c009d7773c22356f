// Lab rows of the block-shape sweep (step 6, tuning): the product's padded
// tile kernel at the shapes of tuning_block_shapes.cuh, one row per line.
// The shapes the product keeps are in src/families/transpose/06_block_shapes.cu.
#include <iterator>
#include <span>
#include <utility>

#include "families/transpose/tile.cuh"
#include "transpose/lab_rungs.hpp"
#include "transpose/tuning_block_shapes.cuh"

namespace tessera::transpose_impl {

namespace {

struct BlockShapeSweep {
  static constexpr const auto& TABLE = tuning::BLOCK_SHAPE_SWEEP;
  template <std::size_t I>
  static void run(const TransposeCall& call) {
    constexpr tuning::BlockShape s = TABLE[I];
    gpu::run_tile<gpu::TilePolicy<s.tile, s.block_rows, 1>>(s.kernel, call);
  }
};

}  // namespace

std::span<const TransposeVariant> block_shape_rows() {
  static const auto rows = sweep_rows<BlockShapeSweep>(6, std::make_index_sequence<std::size(BlockShapeSweep::TABLE)>{});
  return rows;
}

}  // namespace tessera::transpose_impl
