// Coulomb step 2, the seed's scatter CUDA: one thread per atom adds its
// contribution to every lattice point with atomicAdd. Every thread of a warp
// hits the same point at the same moment, so the atomics serialise in L2:
// the lower bound of the ladder (expect a few % of the MUFU ceiling), and its
// sums' order is not fixed (not deterministic). Each warp starts its sweep
// at its own row (warp index mod rows), so that the whole grid does not
// queue on one address at a time: the lesson is the warp's serialisation,
// not a single hot point.
#include "families/coulomb/common.cuh"
#include "families/coulomb/cuda_rungs.hpp"

namespace tessera::coulomb_impl {

namespace {

constexpr int THREADS = 128;

__global__ void coulomb_scatter_atomics_kernel(const float4* atoms, int n_atoms, Lattice L, float* out) {
  const int a = blockIdx.x * THREADS + threadIdx.x;
  if (a >= n_atoms) return;
  const float4 at = atoms[a];
  const std::size_t rows = L.ny * L.nz;
  const std::size_t first = (std::size_t(a) / 32) % rows;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t row_index = (first + r) % rows, j = row_index % L.ny, k = row_index / L.ny;
    const float dz = point_coord(L.origin[2], L.spacing, k) - at.z;
    const float dy = point_coord(L.origin[1], L.spacing, j) - at.y;
    const float dyz = fmaf(dy, dy, dz * dz);
    float* row = out + L.nx * row_index;
    for (std::size_t i = 0; i < L.nx; ++i) {
      const float dx = point_coord(L.origin[0], L.spacing, i) - at.x;
      atomicAdd(row + i, at.w * guarded_rsqrt(fmaf(dx, dx, dyz)));
    }
  }
}

}  // namespace

bool supports_scatter_atomics(const CoulombSpec& s) {
  // One thread per atom (int index), and at most 2^33 pairs (the bench's
  // slice: 6.6e9): past that its serialised atomics take seconds a run.
  return s.n_atoms < (std::size_t(1) << 31) && s.pairs() <= double(std::size_t(1) << 33);
}

void run_scatter_atomics(const CoulombCall& call) {
  const CoulombSpec& s = call.spec;
  TESSERA_CUDA(cudaMemsetAsync(call.potential, 0, s.lattice.points() * sizeof(float), call.stream));
  if (s.n_atoms == 0) return;
  detail::launch("coulomb_scatter_atomics_kernel", coulomb_scatter_atomics_kernel,
                 dim3(unsigned(detail::div_up(s.n_atoms, THREADS))), dim3(THREADS), 0, call.stream, s.n_atoms,
                 reinterpret_cast<const float4*>(call.atoms), int(s.n_atoms), s.lattice, call.potential);
}

}  // namespace tessera::coulomb_impl
