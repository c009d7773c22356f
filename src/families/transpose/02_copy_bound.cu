// Step 2 — the copy bound (seed 000 "Transpose", Baseline: copyGmem, "upper
// bound: coalesced read, coalesced write"). NOT a transpose: it copies the
// input to the output unchanged (rows x cols, written densely), moving the
// same bytes as a transpose with both sides coalesced. It is registered with
// Output::copy, so the harness checks it as a copy (every element equal to
// the input element at the same place, bit for bit) and the public API never
// runs it; its name says what it is in every table.
//
// It uses the tiling of the best seed rung (unroll4: 32 x 32 tiles, 32 x 8
// threads, 4 elements per thread, the same 1-D grid and tile order), so the
// gap between a tile transpose and this row is exactly what the transpose
// itself costs: the shared-memory round trip, the barrier, and the write
// pattern (whole output lines of one tile column instead of a run along a
// row). Bottleneck: DRAM. Expected ~90-97% of the device's copy ceiling
// (cudaMemcpy device-to-device), the ceiling every transpose rung is
// measured against.
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {

// Same shape as the unroll4 rung: 32 x 8 threads, 4 elements each.
constexpr int TILE = 32;
constexpr int BLOCK_ROWS = 8;
constexpr int ITEMS = TILE / BLOCK_ROWS;

template <class W>
__global__ __launch_bounds__(TILE* BLOCK_ROWS) void transpose_copy_bound_kernel(const W* __restrict__ in,
                                                                               W* __restrict__ out, gpu::Grid2D g) {
  const gpu::TileIndex t = gpu::RowMajorOrder::tile_of(blockIdx.x, g.tiles_x, g.tiles_y);
  const std::size_t row0 = static_cast<std::size_t>(t.y) * TILE;
  const std::size_t col0 = static_cast<std::size_t>(t.x) * TILE;
  const std::size_t src = (row0 + threadIdx.y) * g.ld_in + col0 + threadIdx.x;
  const std::size_t dst = (row0 + threadIdx.y) * g.cols + col0 + threadIdx.x;  // dense output
  const std::size_t src_step = static_cast<std::size_t>(BLOCK_ROWS) * g.ld_in;
  const std::size_t dst_step = static_cast<std::size_t>(BLOCK_ROWS) * g.cols;
  if (row0 + TILE <= g.rows && col0 + TILE <= g.cols) {
    W v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) v[k] = in[src + k * src_step];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) out[dst + k * dst_step] = v[k];
  } else if (col0 + threadIdx.x < g.cols) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (row0 + threadIdx.y + k * BLOCK_ROWS < g.rows) out[dst + k * dst_step] = in[src + k * src_step];
  }
}

}  // namespace

void run_copy_bound(const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  constexpr const char* kernel = "transpose_copy_bound_kernel";
  const gpu::Grid2D g = gpu::make_grid(s, TILE, TILE, kernel);
  gpu::with_word(s, kernel, [&]<class W>() {
    detail::launch(kernel, transpose_copy_bound_kernel<W>, dim3(gpu::blocks_of(g)), dim3(TILE, BLOCK_ROWS), 0,
                   call.stream, s.rows * s.cols, static_cast<const W*>(call.in), static_cast<W*>(call.out), g);
  });
}

}  // namespace tessera::transpose_impl
