// The format rungs' preparation (cuda_rungs.hpp's prepare_X), once, outside
// any timed region: every format converts on the GPU from the device CSR,
// COO, ELL and HYB in convert.cu, JDS and the sliced formats (a sort of rows
// by length) in convert_sorted.cu; formats.hpp's host conversions define the
// layouts the tests compare them with. Each plan records its footprint and
// a note for the bench row.
#if TESSERA_HAVE_CUDA
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include <cuda_runtime_api.h>

#include <vector>

#include "families/spmv/convert.hpp"
#include "families/spmv/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"
#include "families/spmv/plans.hpp"

namespace tessera::spmv_impl {

namespace {

std::string mb(std::size_t bytes) { return fmt::format("{:.1f} MB ({} B)", double(bytes) / 1e6, bytes); }

std::unique_ptr<SpmvPlan> prepare_coo(const PrepareArgs& args, const char* who) {
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(args.spec.dtype, who, [&]<class T>() {
    auto plan = gpu::device_coo<T>(args.spec, args.device, args.stream);
    plan->note = fmt::format("coo {} entries, {} empty rows (converted on the GPU): {}", plan->view.nnz,
                             plan->view.empty, mb(plan->footprint_bytes));
    out = std::move(plan);
  });
  return out;
}

std::unique_ptr<SpmvPlan> prepare_sliced(const PrepareArgs& args, std::int64_t height, std::int64_t window,
                                         const char* who) {
  const SpmvSpec& s = args.spec;
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(s.dtype, who, [&]<class T>() {
    auto plan = gpu::device_sliced<T>(s, args.device, height, window, formats::long_row_cut(s.rows, s.nnz),
                                      args.stream);
    const auto& l = plan->long_rows.view;
    plan->note = fmt::format("{} slices of {} rows, sort window {}, {} long rows ({} huge) (converted on the GPU): {}",
                             plan->view.slices, height, window, l.count, l.huge, mb(plan->footprint_bytes));
    out = std::move(plan);
  });
  return out;
}

}  // namespace

std::unique_ptr<SpmvPlan> prepare_ell(const PrepareArgs& args) {
  const SpmvSpec& s = args.spec;
  const std::int64_t width = gpu::device_row_stats(s, args.device, args.stream).max_length;
  const std::size_t vb = value_bytes(s.dtype);
  require(formats::ell_fits(s.rows, width, s.nnz, vb),
          fmt::format("spmv/ell: padding every row to the longest ({} entries) would take {} for {} rows, more than "
                      "{}x the CSR bytes; use hyb, sell_c_sigma or a CSR variant",
                      width, mb(std::size_t(formats::ell_bytes(s.rows, width, vb))), s.rows,
                      formats::ELL_MAX_FOOTPRINT));
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(s.dtype, "ell", [&]<class T>() {
    auto plan = gpu::device_ell<T>(s, args.device, width, args.stream);
    plan->note = fmt::format("ell width {} (converted on the GPU): {}", width, mb(plan->footprint_bytes));
    out = std::move(plan);
  });
  return out;
}

std::unique_ptr<SpmvPlan> prepare_coo_atomic(const PrepareArgs& args) { return prepare_coo(args, "coo_atomic"); }
std::unique_ptr<SpmvPlan> prepare_coo_segmented(const PrepareArgs& args) { return prepare_coo(args, "coo_segmented"); }

std::unique_ptr<SpmvPlan> prepare_hyb(const PrepareArgs& args) {
  const SpmvSpec& s = args.spec;
  const std::int64_t width =
      formats::choose_hyb_width(gpu::device_row_stats(s, args.device, args.stream), s.rows, value_bytes(s.dtype));
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(s.dtype, "hyb", [&]<class T>() {
    auto plan = gpu::device_hyb<T>(s, args.device, width, args.stream);
    plan->note = fmt::format("hyb ell width {} ({}) + coo {} entries ({}) (converted on the GPU): {}", width,
                             mb(plan->ell.footprint_bytes), plan->coo.view.nnz, mb(plan->coo.footprint_bytes),
                             mb(plan->footprint_bytes));
    out = std::move(plan);
  });
  return out;
}

std::unique_ptr<SpmvPlan> prepare_jds(const PrepareArgs& args) {
  const SpmvSpec& s = args.spec;
  std::unique_ptr<SpmvPlan> out;
  gpu::dispatch_value(s.dtype, "jds", [&]<class T>() {
    auto plan = gpu::device_jds<T>(s, args.device, formats::long_row_cut(s.rows, s.nnz), args.stream);
    plan->note = fmt::format("jds {} diagonals, {} long rows ({} huge) (converted on the GPU): {}",
                             plan->view.max_length, plan->long_rows.view.count, plan->long_rows.view.huge,
                             mb(plan->footprint_bytes));
    out = std::move(plan);
  });
  return out;
}

std::unique_ptr<SpmvPlan> prepare_jds_ell_sections(const PrepareArgs& args) {
  return prepare_sliced(args, gpu::SECTION_ROWS, std::max<std::int64_t>(args.spec.rows, 1), "jds_ell_sections");
}

std::unique_ptr<SpmvPlan> prepare_sell_c_sigma(const PrepareArgs& args) {
  return prepare_sliced(args, gpu::SELL_C, gpu::SELL_SIGMA, "sell_c_sigma");
}

}  // namespace tessera::spmv_impl

#endif  // TESSERA_HAVE_CUDA
