// Step 6 — the cylinder test across a thread's points (seed 000 "Cutoff
// Biomolecules", ILP: "compute dx^2 + dz^2 once, test the cylinder shared by
// the 4 points, then each point's remaining axis").
//
// What it changes over step 5: a thread's 4 points share x and y, so
// dx^2 + dy^2 is computed once per atom, and an atom outside the cylinder of
// radius c around the 4 points costs one compare instead of 4 distance tests.
// For c = 12 Å and 4 Å bins ~40% of the atoms read fail it (from the
// geometry: a 12 Å cylinder fills ~60% of the bins within reach).
//
// Bottleneck: as step 5, fewer FP32 instructions per atom read.
#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/shared_tiles.cuh"

namespace tessera::cutoff_impl {

void run_cylinder(const CutoffCall& call) {
  const gpu::ConstBins b = gpu::const_bins_in(call.workspace, call.spec);
  gpu::bin_on_host(call, b);
  const int n_offsets = upload_offsets(b.grid, call.spec.lattice.spacing, call.stream);
  gpu::launch_shared_tiles<true>("cutoff_shared_tile_kernel<cylinder>", call, b, n_offsets);
  gpu::add_overflow(call, b);
}

std::size_t workspace_cylinder(const CutoffSpec& s) { return gpu::const_bins_bytes(s); }
bool supports_cylinder(const CutoffSpec& s) { return gpu::supports_offsets(s); }

}  // namespace tessera::cutoff_impl
