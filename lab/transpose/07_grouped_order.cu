// Lab row grouped_order (step 7, tuning) — the unroll4 kernel (padded 32 x 32
// tile, 32 x 8 threads, 4 elements each) in grouped tile order
// (grouped_order.cuh); nothing else changes, so this row against unroll4
// measures the order alone. Expected: equal to unroll4 or up to ~3 points of
// copy bandwidth above it on large square matrices; measured: within noise
// of unroll4 (grouped_order.cuh).
#include "families/transpose/tile.cuh"
#include "transpose/grouped_order.cuh"
#include "transpose/lab_rungs.hpp"

namespace tessera::transpose_impl {

void run_grouped_order(const TransposeCall& call) {
  gpu::run_tile<gpu::TilePolicy<32, 8, 1, gpu::GroupedOrder>>("transpose_tile_kernel<grouped_order>", call);
}

}  // namespace tessera::transpose_impl
