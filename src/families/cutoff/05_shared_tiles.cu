// Step 5 — bin tiles in shared memory (seed 000 "Cutoff Biomolecules": load 4
// neighbour bins into shared memory with all 128 threads, then every thread
// examines them).
//
// What it changes over step 4: 128 threads per region, 4 points each along z;
// a batch of 4 bins (512 bytes) is read from global memory once per block, not
// once per thread, and all 4 points reuse each atom read from shared memory.
// Empty slots are tested like atoms (they fail): the seed's "dummy atoms"
// cost, ~1/3 of the slots for water.
//
// Bottleneck: FP32 distance tests, ~4x the pairs kept (the region's
// supersphere holds 2.8x the sphere's atoms, and empty slots ~1/3 of the
// slots); two barriers per 32 atoms.
#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/shared_tiles.cuh"

namespace tessera::cutoff_impl {

void run_shared_tiles(const CutoffCall& call) {
  const gpu::ConstBins b = gpu::const_bins_in(call.workspace, call.spec);
  gpu::bin_on_host(call, b);
  const int n_offsets = upload_offsets(b.grid, call.spec.lattice.spacing, call.stream);
  gpu::launch_shared_tiles<false>("cutoff_shared_tile_kernel<plain>", call, b, n_offsets);
  gpu::add_overflow(call, b);
}

std::size_t workspace_shared_tiles(const CutoffSpec& s) { return gpu::const_bins_bytes(s); }
bool supports_shared_tiles(const CutoffSpec& s) { return gpu::supports_offsets(s); }

}  // namespace tessera::cutoff_impl
