// Step 8 — dynamic binning through a scan over the bin counts (seed 000
// "Cutoff Biomolecules", Dynamic binning; the scan is tessera's own,
// tessera::exclusive_scan).
//
// What it changes over step 7: bins have no capacity, so no empty slots are
// read or tested, no overflow list is swept, and no neighbour offsets sit in
// constant memory: a region reads, per bin row within reach, one contiguous
// run of sorted atoms (the bins along x that its supersphere touches),
// 128 atoms per shared-memory tile, with the cylinder test.
//
// Bottleneck: FP32 distance tests, 2.8x the pairs kept (the rows are whole
// 4 Å bins); one count, one scan and one scatter pass per call.
#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/dynamic.cuh"

namespace tessera::cutoff_impl {

void run_dynamic_bins(const CutoffCall& call) { gpu::run_dynamic<1>("cutoff_dynamic_kernel<1>", call); }
std::size_t workspace_dynamic_bins(const CutoffSpec& s) { return gpu::dynamic_bins_bytes(s, 1); }
bool supports_dynamic_bins(const CutoffSpec& s) { return gpu::supports_grid(s); }

}  // namespace tessera::cutoff_impl
