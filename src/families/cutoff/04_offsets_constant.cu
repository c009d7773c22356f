// Step 4 — neighbour-bin offsets in constant memory (seed 000 "Cutoff
// Biomolecules": "the neighbour bin offsets are computed once on the CPU and
// kept in constant memory").
//
// What it changes over step 3: a block is one 8 x 8 x 8 region of points, all
// inside one bin; the bins any of its points can reach are the same offsets
// for every region (the region's box grown by c, corners cut), computed once
// on the host and read from constant memory by every thread in lockstep (a
// broadcast). No per-thread range arithmetic, and bins beyond the sphere's
// reach are skipped.
//
// Bottleneck: each of the 512 threads still reads every neighbour bin from
// global memory on its own (L1 serves most of it, at L1's latency).
#include "families/cutoff/common.cuh"
#include "families/cutoff/cuda_rungs.hpp"

namespace tessera::cutoff_impl {

namespace {

__global__ void __launch_bounds__(REGION* REGION* REGION)
    cutoff_offsets_constant_kernel(const float4* bins, BinGrid g, int n_offsets, gpu::LatticeView L,
                                   float* potential) {
  const int i = blockIdx.x * REGION + threadIdx.x, j = blockIdx.y * REGION + threadIdx.y,
            k = blockIdx.z * REGION + threadIdx.z;
  if (i >= L.n[0] || j >= L.n[1] || k >= L.n[2]) return;  // no barrier in this kernel
  const float x = L.coord(0, i), y = L.coord(1, j), z = L.coord(2, k);
  const int home_x = blockIdx.x + g.halo, home_y = blockIdx.y + g.halo, home_z = blockIdx.z + g.halo;
  float acc = 0.f;
  for (int o = 0; o < n_offsets; ++o) {
    const int3 d = neighbour_offset(o);
    const float4* bin =
        bins + ((std::size_t(home_z + d.z) * g.dims[1] + (home_y + d.y)) * g.dims[0] + (home_x + d.x)) * gpu::BIN_CAPACITY;
    for (int s = 0; s < gpu::BIN_CAPACITY; ++s) {
      const float4 t = __ldg(bin + s);
      if (gpu::is_empty(t)) break;
      const float dx = t.x - x, dy = t.y - y, dz = t.z - z;
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < L.c2) acc += gpu::smoothed_term(t.w, r2, L.inv_c2);
    }
  }
  potential[L.index(i, j, k)] = acc;
}

}  // namespace

void run_offsets_constant(const CutoffCall& call) {
  const gpu::ConstBins b = gpu::const_bins_in(call.workspace, call.spec);
  gpu::bin_on_host(call, b);
  const int n_offsets = upload_offsets(b.grid, call.spec.lattice.spacing, call.stream);
  const BinGrid& g = b.grid;
  const dim3 grid(unsigned(g.regions[0]), unsigned(g.regions[1]), unsigned(g.regions[2]));
  detail::launch("cutoff_offsets_constant_kernel", cutoff_offsets_constant_kernel, grid, dim3(REGION, REGION, REGION), 0,
                 call.stream, call.spec.lattice.points(), b.bins, g, n_offsets, gpu::view_of(call.spec),
                 call.potential);
  gpu::add_overflow(call, b);
}

std::size_t workspace_offsets_constant(const CutoffSpec& s) { return gpu::const_bins_bytes(s); }
bool supports_offsets_constant(const CutoffSpec& s) { return gpu::supports_offsets(s); }

}  // namespace tessera::cutoff_impl
