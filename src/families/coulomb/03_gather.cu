// Coulomb step 3, the seed's gather CUDA: one thread per lattice point sums
// every atom. No atomics; a warp reads the same atom at once (one
// transaction, broadcast from L1) and writes 32 consecutive points. Each pair
// still recomputes dy^2 + dz^2 and loads its atom: expect well under the MUFU
// ceiling, bound by issue (about 9 instructions per pair).
#include "families/coulomb/common.cuh"
#include "families/coulomb/cuda_rungs.hpp"

namespace tessera::coulomb_impl {

namespace {

__global__ void coulomb_gather_kernel(const float4* __restrict__ atoms, std::size_t n_atoms, Lattice L,
                                      float* __restrict__ out) {
  const std::size_t i = std::size_t(blockIdx.x) * BLOCK_X + threadIdx.x;
  const std::size_t j = std::size_t(blockIdx.y) * BLOCK_Y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  const float x = point_coord(L.origin[0], L.spacing, i);
  const float y = point_coord(L.origin[1], L.spacing, j);
  for (std::size_t k = blockIdx.z; k < L.nz; k += gridDim.z) {
    const float z = point_coord(L.origin[2], L.spacing, k);
    float v = 0.0f;
    for (std::size_t a = 0; a < n_atoms; ++a) {
      const float4 at = atoms[a];
      const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
      v = fmaf(at.w, guarded_rsqrt(fmaf(dx, dx, fmaf(dy, dy, dz * dz))), v);
    }
    out[i + L.nx * (j + L.ny * k)] = v;
  }
}

}  // namespace

bool supports_2d_grid(const CoulombSpec& s) {
  return detail::div_up(s.lattice.nx, BLOCK_X) <= 0x7fffffff && detail::div_up(s.lattice.ny, BLOCK_Y) <= GRID_YZ_MAX;
}

void run_gather(const CoulombCall& call) {
  const CoulombSpec& s = call.spec;
  detail::launch("coulomb_gather_kernel", coulomb_gather_kernel, grid_2d(s.lattice, BLOCK_X, BLOCK_Y),
                 dim3(BLOCK_X, BLOCK_Y), 0, call.stream, s.lattice.points(),
                 reinterpret_cast<const float4*>(call.atoms), s.n_atoms, s.lattice, call.potential);
}

}  // namespace tessera::coulomb_impl
