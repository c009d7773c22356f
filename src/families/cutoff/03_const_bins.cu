// Step 3 — constant-capacity bins with a host overflow list (seed 000 "Cutoff
// Biomolecules", Constant bin).
//
// What it changes over step 2: the host sorts the atoms into bins as wide as
// 8 lattice points, 8 atoms each (128 bytes, empty slots marked); atoms past
// a full bin go to one overflow list, swept afterwards by a short kernel over
// every point. A thread per point visits only the bins that its cutoff box
// [p - c, p + c] touches and stops at a bin's first empty slot. Work drops from
// n_atoms to ~(2c + side)^3 x density tests per point.
//
// Bottleneck: every thread reads its bins from global memory (L1 catches the
// neighbours' reuse, not all of it), computes its own bin range, and tests
// the whole cube around the sphere (~2x the sphere's volume); the host
// binning and the copies are on the clock too.
#include "families/cutoff/common.cuh"
#include "families/cutoff/cuda_rungs.hpp"

namespace tessera::cutoff_impl {

namespace {

constexpr int BLOCK_X = 32, BLOCK_Y = 4;  // a warp along x: coalesced writes

__device__ __forceinline__ int clamp_cell(float t, int dim) { return max(0, min(dim - 1, int(floorf(t)))); }

__global__ void __launch_bounds__(BLOCK_X* BLOCK_Y) cutoff_const_bins_kernel(const float4* bins, BinGrid g,
                                                                              gpu::LatticeView L, float* potential) {
  const int i = blockIdx.x * BLOCK_X + threadIdx.x, j = blockIdx.y * BLOCK_Y + threadIdx.y, k = blockIdx.z;
  if (i >= L.n[0] || j >= L.n[1]) return;
  const float p[3] = {L.coord(0, i), L.coord(1, j), L.coord(2, k)};
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = clamp_cell((p[a] - g.cutoff - g.origin[a]) / g.side, g.dims[a]);
    hi[a] = clamp_cell((p[a] + g.cutoff - g.origin[a]) / g.side, g.dims[a]);
  }
  float acc = 0.f;
  for (int bz = lo[2]; bz <= hi[2]; ++bz)
    for (int by = lo[1]; by <= hi[1]; ++by)
      for (int bx = lo[0]; bx <= hi[0]; ++bx) {
        const float4* bin = bins + ((std::size_t(bz) * g.dims[1] + by) * g.dims[0] + bx) * gpu::BIN_CAPACITY;
        for (int s = 0; s < gpu::BIN_CAPACITY; ++s) {
          const float4 t = __ldg(bin + s);
          if (gpu::is_empty(t)) break;  // slots fill from the front
          const float dx = t.x - p[0], dy = t.y - p[1], dz = t.z - p[2];
          const float r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < L.c2) acc += gpu::smoothed_term(t.w, r2, L.inv_c2);
        }
      }
  potential[L.index(i, j, k)] = acc;
}

}  // namespace

void run_const_bins(const CutoffCall& call) {
  const gpu::ConstBins b = gpu::const_bins_in(call.workspace, call.spec);
  gpu::bin_on_host(call, b);
  const Lattice& l = call.spec.lattice;
  const dim3 grid(unsigned(detail::div_up(l.nx, BLOCK_X)), unsigned(detail::div_up(l.ny, BLOCK_Y)), unsigned(l.nz));
  detail::launch("cutoff_const_bins_kernel", cutoff_const_bins_kernel, grid, dim3(BLOCK_X, BLOCK_Y), 0, call.stream,
                 l.points(), b.bins, b.grid, gpu::view_of(call.spec), call.potential);
  gpu::add_overflow(call, b);
}

std::size_t workspace_const_bins(const CutoffSpec& s) { return gpu::const_bins_bytes(s); }
bool supports_const_bins(const CutoffSpec& s) { return gpu::supports_grid(s); }

}  // namespace tessera::cutoff_impl
