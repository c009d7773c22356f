// Step 10, second shape — step 10's lean term with 8 points per thread.
//
// What it changes over sorted_cells_lean: a thread takes a region's whole
// column along z (8 points, 64 threads a region), so the per-atom work that
// does not depend on z (the shared-memory read, dx, dy and the cylinder test,
// 8 issue slots) is spread over 8 points instead of 4: ~8 + 8 x 8.25 = 74
// slots per 8 points against 2 x 42 = 84 (~12% fewer), and two warps a block
// meet at each barrier instead of four. Costs: 8 accumulators and 8 z values
// per thread (more registers, lower occupancy), and 64-atom tiles (a row's run
// of ~50-65 atoms at 0.1-0.19 atoms/Å^3 fits one or two).
//
// Bottleneck: the MUFU pipe nears the issue slots (64 MUFU cycles per atom in
// the cylinder per warp against ~74 issue). Expected: 5-15% under
// sorted_cells_lean, or worse if the occupancy loss shows.
#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/dynamic.cuh"

namespace tessera::cutoff_impl {

namespace {
constexpr int X_SPLIT = 4;  // step 9's cells
constexpr int POINTS = 8;   // a region's column along z
}  // namespace

void run_sorted_cells_lean8(const CutoffCall& call) {
  gpu::run_dynamic<X_SPLIT, true, POINTS>("cutoff_dynamic_kernel<4, lean, 8 points>", call);
}
std::size_t workspace_sorted_cells_lean8(const CutoffSpec& s) { return gpu::dynamic_bins_bytes(s, X_SPLIT); }
bool supports_sorted_cells_lean8(const CutoffSpec& s) {
  return gpu::supports_grid(s) && double(make_bin_grid(s.lattice, s.cutoff, X_SPLIT).cells()) < 2e9;
}

}  // namespace tessera::cutoff_impl
