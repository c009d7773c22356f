// The format rungs' preparation (cuda_rungs.hpp's prepare_X): the matrix
// converted on the host (formats.hpp) and uploaded into a plan, once,
// outside any timed region. Each plan records its footprint and a note for
// the bench row. Converting on the GPU (tessera's scan and histogram for
// the offsets and the row-length histogram) is open work (docs/spmv.md).
#if TESSERA_HAVE_CUDA
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <type_traits>

#include "families/spmv/cuda_rungs.hpp"
#include "families/spmv/plans.hpp"

namespace tessera::spmv_impl {

namespace {

std::string mb(std::size_t bytes) { return fmt::format("{:.1f} MB", double(bytes) / 1e6); }

template <class A>
using value_of = std::remove_cv_t<std::remove_pointer_t<decltype(A::values)>>;

// Converts with convert(csr), builds Plan from the format, notes it.
template <class Plan, class Convert, class Note>
std::unique_ptr<SpmvPlan> prepare_with(const PrepareArgs& args, const char* who, Convert&& convert, Note&& note) {
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(args.spec.dtype, who, [&]<class T>() {
    const auto format = convert(gpu::host_csr<T>(args.spec, args.host));
    out = std::make_unique<Plan>(format);
    out->footprint_bytes = format.bytes();
    out->note = note(format) + ": " + mb(format.bytes());
  });
  return out;
}

std::unique_ptr<SpmvPlan> prepare_coo(const PrepareArgs& args, const char* who) {
  return prepare_with<gpu::CooPlan>(
      args, who, [](const auto& a) { return formats::to_coo(a); },
      [](const auto& c) { return fmt::format("coo {} entries, {} empty rows", c.val.size(), c.empty_rows.size()); });
}

std::unique_ptr<SpmvPlan> prepare_sliced(const PrepareArgs& args, std::int64_t height, std::int64_t window,
                                         const char* who) {
  const std::int64_t nnz = args.spec.nnz;
  return prepare_with<gpu::SlicedPlan>(
      args, who, [&](const auto& a) { return formats::to_sliced(a, height, window); },
      [&](const auto& s) {
        const double cells = nnz > 0 ? double(s.col.size()) / double(nnz) : 1.0;
        return fmt::format("{} slices of {} rows, sort window {}, {:.3f} cells a nonzero", s.slices(), height,
                           window, cells);
      });
}

}  // namespace

std::unique_ptr<SpmvPlan> prepare_ell(const PrepareArgs& args) {
  return prepare_with<gpu::EllPlan>(
      args, "ell",
      [](const auto& a) {
        using T = value_of<std::remove_cvref_t<decltype(a)>>;
        const std::int64_t width = formats::row_stats(a).max_length;
        require(formats::ell_fits(a.rows, width, a.nnz, sizeof(T)),
                fmt::format("spmv/ell: padding every row to the longest ({} entries) would take {} for {} rows, more "
                            "than {}x the CSR bytes; use hyb, sell_c_sigma or a CSR variant",
                            width, mb(std::size_t(formats::ell_bytes(a.rows, width, sizeof(T)))), a.rows,
                            formats::ELL_MAX_FOOTPRINT));
        return formats::to_ell(a, width);
      },
      [](const auto& e) { return fmt::format("ell width {}", e.width); });
}

std::unique_ptr<SpmvPlan> prepare_coo_atomic(const PrepareArgs& args) { return prepare_coo(args, "coo_atomic"); }
std::unique_ptr<SpmvPlan> prepare_coo_segmented(const PrepareArgs& args) { return prepare_coo(args, "coo_segmented"); }

std::unique_ptr<SpmvPlan> prepare_hyb(const PrepareArgs& args) {
  return prepare_with<gpu::HybPlan>(
      args, "hyb",
      [](const auto& a) {
        using T = value_of<std::remove_cvref_t<decltype(a)>>;
        return formats::to_hyb(a, formats::choose_hyb_width(formats::row_stats(a), a.rows, sizeof(T)));
      },
      [](const auto& h) {
        return fmt::format("hyb ell width {} ({}) + coo {} entries ({})", h.ell.width, mb(h.ell.bytes()),
                           h.coo.val.size(), mb(h.coo.bytes()));
      });
}

std::unique_ptr<SpmvPlan> prepare_jds(const PrepareArgs& args) {
  return prepare_with<gpu::JdsPlan>(
      args, "jds", [](const auto& a) { return formats::to_jds(a); },
      [](const auto& j) { return fmt::format("jds {} diagonals", j.diag_offsets.size() - 1); });
}

std::unique_ptr<SpmvPlan> prepare_jds_ell_sections(const PrepareArgs& args) {
  return prepare_sliced(args, gpu::SECTION_ROWS, std::max<std::int64_t>(args.spec.rows, 1), "jds_ell_sections");
}

std::unique_ptr<SpmvPlan> prepare_sell_c_sigma(const PrepareArgs& args) {
  return prepare_sliced(args, gpu::SELL_C, gpu::SELL_SIGMA, "sell_c_sigma");
}

}  // namespace tessera::spmv_impl

#endif  // TESSERA_HAVE_CUDA
