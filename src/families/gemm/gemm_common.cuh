// Building blocks shared by the CUDA GEMM rungs: the kernel arguments, the
// tile numbering on a 1-D grid, the epilogue and the checked launch.
//
// Grids are 1-D over output tiles: gridDim.x allows 2^31 - 1 blocks, while a
// 2-D grid would cap the tile rows at 65535 (a 1M x 16 matrix of 16-row tiles
// is legal input). Indices into the matrices are 64-bit (std::size_t): C may
// hold more than 2^31 elements.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/blocks/launch.cuh"
#include "families/gemm/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::gemm_impl::dev {

// What every kernel receives, by value.
struct GemmArgs {
  std::size_t m, n, k, lda, ldb, ldc;
  float alpha, beta;
  const float* a;
  const float* b;  // A*A^T kernels: unused
  float* c;
};

inline GemmArgs args_of(const GemmCall& call) {
  const auto& s = call.spec;
  return {s.m, s.n, s.k, s.lda, s.ldb, s.ldc, call.alpha, call.beta, call.a, call.b, call.c};
}

// Row-major numbering of the output tiles: block id = tile_row * tiles_n + tile_col.
struct TileOrigin {
  std::size_t row0, col0;
};

__device__ __forceinline__ TileOrigin tile_origin(unsigned tiles_n, unsigned tile_rows, unsigned tile_cols) {
  const unsigned id = blockIdx.x;
  return {std::size_t(id / tiles_n) * tile_rows, std::size_t(id % tiles_n) * tile_cols};
}

// Tiles on and below the diagonal of a square grid of tiles, numbered row by
// row: id -> (tm, tn), tn <= tm.
__device__ __forceinline__ void triangle_tile(unsigned id, unsigned& tm, unsigned& tn) {
  unsigned r = static_cast<unsigned>((sqrt(8.0 * double(id) + 1.0) - 1.0) * 0.5);
  while (std::uint64_t(r) * (r + 1) / 2 > id) --r;           // guard the rounding of sqrt
  while (std::uint64_t(r + 1) * (r + 2) / 2 <= id) ++r;
  tm = r;
  tn = id - static_cast<unsigned>(std::uint64_t(r) * (r + 1) / 2);
}

// C = alpha * acc + beta * C; C is not read when beta == 0 (BLAS semantics:
// the output may hold NaN or garbage on entry).
__device__ __forceinline__ float scaled(float acc, float alpha, float beta, const float* c) {
  return beta == 0.0f ? alpha * acc : fmaf(beta, *c, alpha * acc);
}

__device__ __forceinline__ void store_scaled(float* c, float acc, float alpha, float beta) {
  *c = scaled(acc, alpha, beta, c);
}

// Four consecutive outputs c[col .. col+3] of one row of C with n columns:
// one 16-byte load/store when `vec` (the row is 16-byte aligned) and all four
// are inside the row, else guarded scalar stores.
__device__ __forceinline__ void store4_scaled(float* c_row, std::size_t col, std::size_t n, const float (&acc)[4],
                                              float alpha, float beta, bool vec) {
  float* c = c_row + col;
  if (vec && col + 4 <= n) {
    float4 v = make_float4(alpha * acc[0], alpha * acc[1], alpha * acc[2], alpha * acc[3]);
    if (beta != 0.0f) {
      const float4 old = *reinterpret_cast<const float4*>(c);
      v.x = fmaf(beta, old.x, v.x), v.y = fmaf(beta, old.y, v.y);
      v.z = fmaf(beta, old.z, v.z), v.w = fmaf(beta, old.w, v.w);
    }
    *reinterpret_cast<float4*>(c) = v;
    return;
  }
#pragma unroll
  for (unsigned j = 0; j < 4; ++j)
    if (col + j < n) store_scaled(c + j, acc[j], alpha, beta);
}

// Whether every row of a matrix starts on a 16-byte boundary (float4 access).
inline bool rows_aligned16(const void* base, std::size_t ld) {
  return ld % 4 == 0 && reinterpret_cast<std::uintptr_t>(base) % 16 == 0;
}

// The number of tiles covering a rows x cols output, as a 1-D grid size;
// throws when it does not fit in gridDim.x.
inline unsigned tile_count(std::size_t rows, std::size_t cols, std::size_t tile_rows, std::size_t tile_cols,
                           const char* kernel) {
  const std::size_t tiles = detail::div_up(rows, tile_rows) * detail::div_up(cols, tile_cols);
  if (tiles > std::size_t(INT_MAX))
    throw Error(std::string(kernel) + ": " + std::to_string(rows) + " x " + std::to_string(cols) +
                " output needs more tiles than a grid holds");
  return static_cast<unsigned>(tiles);
}

// Launches `kernel(args, tiles_n)` on one block per tile_rows x tile_cols
// output tile; an empty output launches nothing.
inline void launch_tiles(const char* name, void (*kernel)(GemmArgs, unsigned), const GemmCall& call,
                         unsigned tile_rows, unsigned tile_cols, dim3 block, std::size_t smem = 0) {
  const auto& s = call.spec;
  if (s.m == 0 || s.n == 0) return;
  const unsigned tiles = tile_count(s.m, s.n, tile_rows, tile_cols, name);
  const auto tiles_n = static_cast<unsigned>(detail::div_up(s.n, tile_cols));
  detail::launch(name, kernel, dim3(tiles), block, smem, call.stream, s.m * s.n, args_of(call), tiles_n);
}

}  // namespace tessera::gemm_impl::dev
