// Step 2 — the direct sum with the same smoothing (seed 000 "Cutoff
// Biomolecules", the check against DCS on small systems; seed 000 "DCS",
// gather: a thread per lattice point).
//
// Every point looks at every atom (tiles of 256 atoms staged in shared
// memory), so it does n_points x n_atoms distance tests for the ~n_points x
// 720 pairs that the cutoff keeps: this is the rung binning exists to beat,
// and the GPU check of the others on small systems. Expected: FP32-bound on
// the distance tests, ~n_atoms / 720 times slower than the pairs require.
#include <algorithm>

#include "families/cutoff/common.cuh"
#include "families/cutoff/cuda_rungs.hpp"

namespace tessera::cutoff_impl {

namespace {

constexpr int TILE = 256;  // atoms per shared-memory tile = threads per block
// Above this many (point, atom) tests the rung takes seconds: bench problems
// past it leave it out.
constexpr double MAX_TESTS = 1e12;

__global__ void __launch_bounds__(TILE) cutoff_direct_smoothed_kernel(const float4* atoms, unsigned n,
                                                                      gpu::LatticeView L, float* potential) {
  __shared__ float4 tile[TILE];
  const std::size_t points = std::size_t(L.n[0]) * L.n[1] * L.n[2];
  const std::size_t p = std::size_t(blockIdx.x) * TILE + threadIdx.x;
  const bool live = p < points;
  const int i = int(p % L.n[0]), j = int((p / L.n[0]) % L.n[1]), k = int(p / (std::size_t(L.n[0]) * L.n[1]));
  const float x = L.coord(0, i), y = L.coord(1, j), z = L.coord(2, k);
  float acc = 0.f;
  for (unsigned base = 0; base < n; base += TILE) {
    __syncthreads();
    if (base + threadIdx.x < n) tile[threadIdx.x] = atoms[base + threadIdx.x];
    __syncthreads();
    const unsigned m = min(unsigned(TILE), n - base);
    for (unsigned a = 0; a < m; ++a) {
      const float4 t = tile[a];
      const float dx = t.x - x, dy = t.y - y, dz = t.z - z;
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < L.c2) acc += gpu::smoothed_term(t.w, r2, L.inv_c2);
    }
  }
  if (live) potential[p] = acc;
}

}  // namespace

void run_direct_smoothed(const CutoffCall& call) {
  const std::size_t points = call.spec.lattice.points();
  detail::launch("cutoff_direct_smoothed_kernel", cutoff_direct_smoothed_kernel, unsigned(detail::div_up(points, TILE)),
                 TILE, 0, call.stream, points, reinterpret_cast<const float4*>(call.atoms), unsigned(call.spec.n_atoms),
                 gpu::view_of(call.spec), call.potential);
}

std::size_t workspace_direct_smoothed(const CutoffSpec&) { return 0; }

bool supports_direct_smoothed(const CutoffSpec& s) {
  const std::size_t points = s.lattice.points();
  return s.n_atoms < (std::size_t(1) << 31) && detail::div_up(points, TILE) < (std::size_t(1) << 31) &&
         double(points) * double(s.n_atoms) <= MAX_TESTS && gpu::supports_grid(s);
}

}  // namespace tessera::cutoff_impl
