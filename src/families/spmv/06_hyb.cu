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
#include "families/spmv/device_formats.cuh"
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

std::unique_ptr<SpmvPlan> prepare_hyb(const PrepareArgs& args) {
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(args.spec.dtype, "hyb", [&]<class T>() {
    const Csr<T> a = gpu::host_csr<T>(args.spec, args.host);
    const std::int64_t width = formats::choose_hyb_width(formats::row_stats(a), a.rows, sizeof(T));
    const auto h = formats::to_hyb(a, width);
    out = std::make_unique<gpu::HybPlan>(h);
    out->footprint_bytes = h.bytes();
    out->note = fmt::format("hyb ell width {} ({}) + coo {} entries ({}): {}", width, gpu::mb(h.ell.bytes()),
                            h.coo.val.size(), gpu::mb(h.coo.bytes()), gpu::mb(h.bytes()));
  });
  return out;
}

}  // namespace tessera::spmv_impl
