// What the coulomb CUDA rungs share: the reciprocal square roots (MUFU and
// the FMA-pipe estimate), lattice coordinates, the coincident-pair rule, and
// the constant-memory chunk loop of the seed's constant-cache rungs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "families/coulomb/contract.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::coulomb_impl {

// Threads of the 2D blocks: a warp along x (coalesced rows), 8 rows per block.
inline constexpr int BLOCK_X = 32;
inline constexpr int BLOCK_Y = 8;
// Atoms per constant-memory chunk: 4000 x 16 B = 62.5 KiB of the 64 KiB bank,
// the rest left to the compiler's own constants.
inline constexpr std::size_t CONST_ATOMS = 4000;
// Grid y and z limits (the x dimension covers the row).
inline constexpr std::size_t GRID_YZ_MAX = 65535;

// The grid of a rung whose block covers points_per_block_x points of
// rows_per_block rows; z loops past GRID_YZ_MAX layers.
inline dim3 grid_2d(const Lattice& L, std::size_t points_per_block_x, std::size_t rows_per_block) {
  return dim3(unsigned(detail::div_up(L.nx, points_per_block_x)), unsigned(detail::div_up(L.ny, rows_per_block)),
              unsigned(std::min(L.nz, GRID_YZ_MAX)));
}

// rsqrt through the special-function unit: one MUFU.RSQ. The ftz form skips
// the denormal fix-up rsqrtf() adds without fast-math; r^2 >= MIN_R2 is
// normal wherever the result is used.
__device__ __forceinline__ float mufu_rsqrt(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// rsqrt on the FMA pipe: the bit-trick estimate (exponent halved and negated
// by one integer subtract; max relative error 3.4e-2) refined by NEWTON
// Newton steps y <- y (1.5 - x/2 y^2), each squaring the error: 1.8e-3,
// 4.7e-6, then float rounding (a few ulp) after 3. Every step is 1 FMUL +
// 1 FFMA + 1 FMUL, no MUFU: it runs beside the MUFU pipe, not on it.
template <int NEWTON>
__device__ __forceinline__ float fma_rsqrt(float x) {
  float y = __int_as_float(0x5f375a86 - (__float_as_int(x) >> 1));
  const float half_x = 0.5f * x;
#pragma unroll
  for (int s = 0; s < NEWTON; ++s) y = y * fmaf(-half_x * y, y, 1.5f);
  return y;
}

// rsqrt on the FMA pipe in one step of higher order: from the same estimate
// y, r = 1 - x y^2 and y (1 - r)^(-1/2) = y (1 + r/2 + 3r^2/8 + 5r^3/16 +
// 35r^4/128 + ...) summed to the r^4 term. 7 instructions after the estimate
// (FMUL, FFMA for r; 3 FFMA for the polynomial; FMUL, FFMA for y + y r p),
// no x/2: as cheap as 2 Newton steps, with max relative error 4.4e-7 (mean
// 7e-8) exhaustively over [1, 4) on the host, where 2 Newton steps give
// 4.7e-6. SERIES_STEP (contract.hpp) in a split's `newton` selects it.
__device__ __forceinline__ float fma_rsqrt_series(float x) {
  const float y = __int_as_float(0x5f375a86 - (__float_as_int(x) >> 1));
  const float r = fmaf(-(x * y), y, 1.0f);
  float p = fmaf(35.0f / 128.0f, r, 5.0f / 16.0f);
  p = fmaf(p, r, 3.0f / 8.0f);
  p = fmaf(p, r, 0.5f);
  return fmaf(y * r, p, y);
}

__device__ __forceinline__ float point_coord(float origin, float spacing, std::size_t i) {
  return fmaf(float(i), spacing, origin);
}

// 1/r, or 0 for a coincident pair (contract.hpp's rule).
__device__ __forceinline__ float guarded_rsqrt(float r2) { return r2 < MIN_R2 ? 0.0f : mufu_rsqrt(r2); }


// The seed's constant-memory rungs: the atoms go through `symbol` (the
// calling file's __constant__ array of CONST_ATOMS float4) one chunk at a
// time, each chunk one launch; launch(count, first) runs the kernel over the
// chunk (`first`: the launch that starts every sum at zero). With no atoms,
// one launch with count 0 writes the zeros.
//
// The symbol is one per file and process: two calls of the same constant
// rung on different streams at once would race on it (the API's pick, the
// split rung, reads atoms through shared memory and has no such limit).
template <class Launch>
void for_each_constant_chunk(const void* symbol, const CoulombCall& call, Launch launch) {
  const std::size_t n = call.spec.n_atoms;
  std::size_t offset = 0;
  do {
    const std::size_t count = std::min(CONST_ATOMS, n - offset);
    if (count > 0)
      TESSERA_CUDA(cudaMemcpyToSymbolAsync(symbol, call.atoms + offset, count * sizeof(Atom), 0,
                                           cudaMemcpyDeviceToDevice, call.stream));
    launch(static_cast<int>(count), offset == 0);
    offset += count;
  } while (offset < n);
}

}  // namespace tessera::coulomb_impl
