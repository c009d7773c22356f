// Step 9 — tessera's best: dynamic bins sorted by narrow cells along x.
//
// What it changes over step 8: each bin is split into X_SPLIT = 4 cells along
// x (1 Å at 0.5 Å spacing), atoms sorted by cell, x fastest. A row of cells is
// still one contiguous run of sorted atoms, but it now starts and ends where
// the cutoff sphere around the region does, to a quarter of a bin: fewer atoms
// staged and tested for the same pairs (for c = 12 Å and 4 Å regions, 2.54x
// the sphere's atoms instead of 2.8x: 9% fewer). Bins along y and z stay
// region-wide: 1 Å cells there too (2.05x) would multiply the rows, each a
// pair of barriers, by 13.
//
// Bottleneck: FP32 distance tests and the MUFU reciprocal square roots of the
// pairs kept. Expected: ~25-35% of the MUFU ceiling in pairs per second.
#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/dynamic.cuh"

namespace tessera::cutoff_impl {

namespace {
constexpr int X_SPLIT = 4;
}  // namespace

void run_sorted_cells(const CutoffCall& call) { gpu::run_dynamic<X_SPLIT>("cutoff_dynamic_kernel<4>", call); }
std::size_t workspace_sorted_cells(const CutoffSpec& s) { return gpu::dynamic_bins_bytes(s, X_SPLIT); }
bool supports_sorted_cells(const CutoffSpec& s) {
  return gpu::supports_grid(s) && double(make_bin_grid(s.lattice, s.cutoff, X_SPLIT).cells()) < 2e9;
}

}  // namespace tessera::cutoff_impl
