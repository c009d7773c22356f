// SpMV step 6 — HYB: ELL for the first `width` entries of every row, COO for
// the rest (seed 000 SpMV, "Hybrid ELL + COO"; both parts on the GPU, the
// COO part with atomics as the seed suggests).
//
// What it changes over steps 4 and 5: the width comes from the row-length
// histogram (formats::choose_hyb_width: the fewest bytes, a COO entry
// weighted HYB_COO_WEIGHT times an ELL cell), so the regular bulk of the
// matrix streams coalesced without padding blow-up and only the long rows'
// tails pay COO's row index and atomics. The ELL kernel writes every row
// (alpha * its ELL part + beta * y); the COO kernel then adds the tails.
// Not deterministic where a row has a COO tail (atomic order). Expected:
// ELL's speed on stencils (no tail), and a usable power-law rung.
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace gpu {
template <class T>
void launch_ell(const EllView& e, const SpmvCall& c);
template <class T>
void launch_coo_atomic(const CooView& c, const SpmvCall& call);
}  // namespace gpu

void run_hyb(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::HybPlan>(c, "hyb");
  gpu::dispatch_value(c.spec.dtype, "hyb", [&]<class T>() {
    gpu::launch_ell<T>(plan.ell.view, c);
    gpu::launch_coo_atomic<T>(plan.coo.view, c);
  });
}
std::size_t ws_hyb(const SpmvSpec&) { return 0; }
bool supports_hyb(const SpmvSpec& s) { return gpu::format_supports(s); }

}  // namespace tessera::spmv_impl
