// SpMV step 8 (second product candidate) — SELL-C-sigma: slices of C = 32
// rows (one warp), rows sorted by length only within windows of SIGMA rows.
//
// What it changes over jds_ell_sections: a slice is one warp, so padding is
// bounded by the spread of 32 neighbouring sorted rows, and the sort stays
// local (y writes and x's locality stay near the original order) instead of
// scattering the whole vector. Rows past the cut (formats::long_row_cut)
// leave the slices for long_rows.cuh's warp- and block-per-row part, in the
// same run: no row length serialises on one thread. Expected: stencils at
// CSR-vector speed with fewer bytes per entry (no row offsets read); power
// law better than jds.
#include "families/spmv/cuda_rungs.hpp"
#include "families/spmv/long_rows.cuh"
#include "families/spmv/sliced.cuh"

namespace tessera::spmv_impl {

void run_sell_c_sigma(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::SlicedPlan>(c, "sell_c_sigma");
  gpu::dispatch_value(c.spec.dtype, "sell_c_sigma", [&]<class T>() {
    gpu::launch_sliced<T>(plan.view, c);
    gpu::launch_long_rows<T>(plan.long_rows.view, c);
  });
}
std::size_t ws_sell_c_sigma(const SpmvSpec&) { return 0; }
bool supports_sell_c_sigma(const SpmvSpec& s) { return gpu::format_supports(s); }
}  // namespace tessera::spmv_impl
