// Coulomb step 4, the seed's constant cache: the gather of step 3 with the
// atoms in __constant__ memory, CONST_ATOMS per launch. A warp reads one atom
// at a time, the constant cache's broadcast case, and the FFMAs take their
// atom operands straight from the constant bank (no load instruction).
// Launches after the first add to the sums the previous chunk left.
#include "families/coulomb/common.cuh"
#include "families/coulomb/cuda_rungs.hpp"

namespace tessera::coulomb_impl {

namespace {

__constant__ float4 c_atoms[CONST_ATOMS];

__global__ void coulomb_constant_atoms_kernel(int count, bool first, Lattice L, float* __restrict__ out) {
  const std::size_t i = std::size_t(blockIdx.x) * BLOCK_X + threadIdx.x;
  const std::size_t j = std::size_t(blockIdx.y) * BLOCK_Y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  const float x = point_coord(L.origin[0], L.spacing, i);
  const float y = point_coord(L.origin[1], L.spacing, j);
  for (std::size_t k = blockIdx.z; k < L.nz; k += gridDim.z) {
    const float z = point_coord(L.origin[2], L.spacing, k);
    float* p = out + i + L.nx * (j + L.ny * k);
    // The seed's latency hiding: the old sum is read first, used last.
    const float old = first ? 0.0f : *p;
    float v = 0.0f;
    for (int a = 0; a < count; ++a) {
      const float dx = x - c_atoms[a].x, dy = y - c_atoms[a].y, dz = z - c_atoms[a].z;
      v = fmaf(c_atoms[a].w, guarded_rsqrt(fmaf(dx, dx, fmaf(dy, dy, dz * dz))), v);
    }
    *p = old + v;
  }
}

}  // namespace

void run_constant_atoms(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  for_each_constant_chunk(c_atoms, call, [&](int count, bool first) {
    detail::launch("coulomb_constant_atoms_kernel", coulomb_constant_atoms_kernel, grid_2d(L, BLOCK_X, BLOCK_Y),
                   dim3(BLOCK_X, BLOCK_Y), 0, call.stream, L.points(), count, first, L, call.potential);
  });
}

}  // namespace tessera::coulomb_impl
