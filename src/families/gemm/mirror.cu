// Completes a lower-triangle result (the vendor SYRK writes only C[i][j],
// j <= i) into the full symmetric matrix the public API promises:
// C[j][i] = C[i][j] for j < i. Through a padded 32 x 32 shared tile, so that
// both the reads of the lower tile and the writes of its mirror are
// coalesced (the transpose of seed 000 "Transpose").
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr unsigned TILE = 32;
constexpr unsigned ROWS = 8;  // 32 x 8 threads, 4 rows each

__global__ __launch_bounds__(TILE* ROWS) void mirror_lower_kernel(float* c, std::size_t m, std::size_t ldc) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned ti, tj;  // this block's lower-triangle tile, tj <= ti
  dev::triangle_tile(blockIdx.x, ti, tj);
  const std::size_t r0 = std::size_t(ti) * TILE, c0 = std::size_t(tj) * TILE;
  for (unsigned y = threadIdx.y; y < TILE; y += ROWS) {
    const std::size_t r = r0 + y, col = c0 + threadIdx.x;
    if (r < m && col < m && col <= r) tile[y][threadIdx.x] = c[r * ldc + col];
  }
  __syncthreads();
  for (unsigned y = threadIdx.y; y < TILE; y += ROWS) {
    const std::size_t r = c0 + y, col = r0 + threadIdx.x;  // mirror: row c0 + y, column r0 + x
    if (r < m && col < m && r < col) c[r * ldc + col] = tile[threadIdx.x][y];
  }
}

}  // namespace

void mirror_lower_to_upper(float* c, std::size_t m, std::size_t ldc, stream_t stream) {
  if (m < 2) return;
  const std::size_t t = detail::div_up(m, TILE);
  const std::size_t tiles = t * (t + 1) / 2;
  dev::tile_count(m, m, TILE, TILE, "mirror_lower_kernel");  // throws past a grid's capacity
  detail::launch("mirror_lower_kernel", mirror_lower_kernel, dim3(static_cast<unsigned>(tiles)), dim3(TILE, ROWS), 0,
                 stream, m * m, c, m, ldc);
}

}  // namespace tessera::gemm_impl
