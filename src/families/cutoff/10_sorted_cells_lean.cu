// Step 10 — tessera's best: step 9 with the lean pair term.
//
// What it changes over step 9: the inner loop's SASS (nvdisasm of step 9 for
// sm_90) spends ~15 instructions on each of a thread's 4 points per atom in
// the cylinder: a compare, a branch and its reconvergence (BSSY/BSYNC), a
// reload of 1/c^2 from constant memory, and rsqrtf's subnormal guard (a test
// and two predicated multiplies around MUFU.RSQ). Here the term is branchless,
// s = max(1 - r^2 / c^2, 0) (exactly 0 past c), the constants sit in
// registers, and the reciprocal square root is the bare MUFU instruction
// (dynamic.cuh's lean_term_add): 8 instructions a point. Every point of an
// atom in the cylinder now issues its MUFU (step 9 skipped the warps whose 32
// points were all past c), 8 MUFU cycles a warp against ~8 issue cycles: the
// two pipes balance instead of the issue slots doing twice the work.
//
// Bottleneck: issue slots and the MUFU pipe about equally. Expected: ~1.5x
// step 9's kernel time (issue cycles per atom in the cylinder ~61 -> ~40).
#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/dynamic.cuh"

namespace tessera::cutoff_impl {

namespace {
constexpr int X_SPLIT = 4;  // step 9's cells
}  // namespace

void run_sorted_cells_lean(const CutoffCall& call) {
  gpu::run_dynamic<X_SPLIT, true>("cutoff_dynamic_kernel<4, lean>", call);
}
std::size_t workspace_sorted_cells_lean(const CutoffSpec& s) { return gpu::dynamic_bins_bytes(s, X_SPLIT); }
bool supports_sorted_cells_lean(const CutoffSpec& s) {
  return gpu::supports_grid(s) && double(make_bin_grid(s.lattice, s.cutoff, X_SPLIT).cells()) < 2e9;
}

}  // namespace tessera::cutoff_impl
