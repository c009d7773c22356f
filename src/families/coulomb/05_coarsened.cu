// Coulomb step 5, the seed's thread coarsening: each thread computes 4
// consecutive points of a row, so dy^2 + dz^2 and the atom's constant reads
// are shared by 4 pairs (4x fewer atom reads, about 4 instructions per pair
// plus a quarter of the per-atom work). Its writes are strided: neighbouring
// threads write points 4 apart (the problem step 6 fixes).
#include "families/coulomb/common.cuh"
#include "families/coulomb/cuda_rungs.hpp"

namespace tessera::coulomb_impl {

namespace {

constexpr int POINTS = 4;  // the seed's 4 outputs per thread

__constant__ float4 c_atoms[CONST_ATOMS];

__global__ void coulomb_coarsened4_kernel(int count, bool first, Lattice L, float* __restrict__ out) {
  const std::size_t i0 = (std::size_t(blockIdx.x) * BLOCK_X + threadIdx.x) * POINTS;
  const std::size_t j = std::size_t(blockIdx.y) * BLOCK_Y + threadIdx.y;
  if (i0 >= L.nx || j >= L.ny) return;
  float x[POINTS];
#pragma unroll
  for (int p = 0; p < POINTS; ++p) x[p] = point_coord(L.origin[0], L.spacing, i0 + p);
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
    for (int p = 0; p < POINTS; ++p)
      if (i0 + p < L.nx) row[i0 + p] = (first ? 0.0f : row[i0 + p]) + v[p];
  }
}

}  // namespace

void run_coarsened4(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  for_each_constant_chunk(c_atoms, call, [&](int count, bool first) {
    detail::launch("coulomb_coarsened4_kernel", coulomb_coarsened4_kernel, grid_2d(L, BLOCK_X * POINTS, BLOCK_Y),
                   dim3(BLOCK_X, BLOCK_Y), 0, call.stream, L.points(), count, first, L, call.potential);
  });
}

}  // namespace tessera::coulomb_impl
