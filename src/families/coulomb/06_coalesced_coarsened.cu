// Coulomb step 6, the seed's coalesced coarsening with a padded lattice: each
// thread still computes several points of a row, but they sit a warp apart
// (lane l takes x = base + l + 32 p), so every store of the warp is one
// 128-byte line. The row is computed to a multiple of the warp's 32 x POINTS
// points (the padding): the inner loop has no bounds test, only the final
// store does. 8 points per thread (the H100 has the registers for it).
#include "families/coulomb/common.cuh"
#include "families/coulomb/cuda_rungs.hpp"

namespace tessera::coulomb_impl {

namespace {

constexpr int POINTS = 8;

__constant__ float4 c_atoms[CONST_ATOMS];

__global__ void coulomb_coalesced_coarsened_kernel(int count, bool first, Lattice L, float* __restrict__ out) {
  const std::size_t i0 = std::size_t(blockIdx.x) * BLOCK_X * POINTS + threadIdx.x;
  const std::size_t j = std::size_t(blockIdx.y) * BLOCK_Y + threadIdx.y;
  if (j >= L.ny) return;
  float x[POINTS];
#pragma unroll
  for (int p = 0; p < POINTS; ++p) x[p] = point_coord(L.origin[0], L.spacing, i0 + std::size_t(p) * BLOCK_X);
  const float y = point_coord(L.origin[1], L.spacing, j);
  for (std::size_t k = blockIdx.z; k < L.nz; k += gridDim.z) {
    const float z = point_coord(L.origin[2], L.spacing, k);
    float* row = out + L.nx * (j + L.ny * k);
    float v[POINTS] = {};
    for (int a = 0; a < count; ++a) {
      const float dy = y - c_atoms[a].y, dz = z - c_atoms[a].z;
      const float dyz = fmaf(dy, dy, dz * dz);
#pragma unroll
      for (int p = 0; p < POINTS; ++p) {
        const float dx = x[p] - c_atoms[a].x;
        v[p] = fmaf(c_atoms[a].w, guarded_rsqrt(fmaf(dx, dx, dyz)), v[p]);
      }
    }
#pragma unroll
    for (int p = 0; p < POINTS; ++p) {
      const std::size_t i = i0 + std::size_t(p) * BLOCK_X;
      if (i < L.nx) row[i] = (first ? 0.0f : row[i]) + v[p];
    }
  }
}

}  // namespace

void run_coalesced_coarsened(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  for_each_constant_chunk(c_atoms, call, [&](int count, bool first) {
    detail::launch("coulomb_coalesced_coarsened_kernel", coulomb_coalesced_coarsened_kernel,
                   grid_2d(L, BLOCK_X * POINTS, BLOCK_Y), dim3(BLOCK_X, BLOCK_Y), 0, call.stream, L.points(), count,
                   first, L, call.potential);
  });
}

}  // namespace tessera::coulomb_impl
