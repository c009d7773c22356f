// The format rungs' preparation (cuda_rungs.hpp's prepare_X), once, outside
// any timed region: COO, ELL and HYB convert on the GPU from the device CSR
// (convert.cu); JDS and the sliced formats, which sort rows by length,
// convert on the host (formats.hpp, from the host CSR, downloaded when the
// caller has none) and upload. Each plan records its footprint and a note
// for the bench row.
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

// The host CSR: the caller's, or the device arrays copied down.
struct HostCsr {
  std::vector<std::int64_t> offsets;
  std::vector<std::int32_t> columns;
  std::vector<unsigned char> values;
  CsrArrays arrays;
};
HostCsr host_csr_of(const PrepareArgs& args) {
  HostCsr h;
  h.arrays = args.host;
  const SpmvSpec& s = args.spec;
  if (args.host.row_offsets != nullptr || s.rows == 0) return h;
  const auto stream = static_cast<cudaStream_t>(args.stream);
  h.offsets.resize(std::size_t(s.rows + 1));
  h.columns.resize(std::size_t(s.nnz));
  h.values.resize(std::size_t(s.nnz) * value_bytes(s.dtype));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaMemcpy(h.offsets.data(), args.device.row_offsets, h.offsets.size() * 8, cudaMemcpyDeviceToHost));
  if (s.nnz > 0) {
    TESSERA_CUDA(cudaMemcpy(h.columns.data(), args.device.col_indices, h.columns.size() * 4, cudaMemcpyDeviceToHost));
    TESSERA_CUDA(cudaMemcpy(h.values.data(), args.device.values, h.values.size(), cudaMemcpyDeviceToHost));
  }
  h.arrays = {h.offsets.data(), h.columns.data(), h.values.data()};
  return h;
}

// Converts with convert(csr) on the host, builds Plan from the format, notes it.
template <class Plan, class Convert, class Note>
std::unique_ptr<SpmvPlan> prepare_with(const PrepareArgs& args, const char* who, Convert&& convert, Note&& note) {
  std::unique_ptr<SpmvPlan> out;
  const HostCsr host = host_csr_of(args);
  gpu::dispatch_value(args.spec.dtype, who, [&]<class T>() {
    const auto format = convert(gpu::host_csr<T>(args.spec, host.arrays));
    out = std::make_unique<Plan>(format);
    out->footprint_bytes = format.bytes();
    out->note = note(format) + ": " + mb(format.bytes());
  });
  return out;
}

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
  const std::int64_t nnz = args.spec.nnz;
  return prepare_with<gpu::SlicedPlan>(
      args, who,
      [&](const auto& a) { return formats::to_sliced(a, height, window, formats::long_row_cut(a.rows, a.nnz)); },
      [&](const auto& s) {
        const double cells = nnz > 0 ? double(s.col.size() + s.long_rows.col.size()) / double(nnz) : 1.0;
        return fmt::format("{} slices of {} rows, sort window {}, {:.3f} cells a nonzero, {} long rows ({} huge)",
                           s.slices(), height, window, cells, s.long_rows.count(), s.long_rows.huge);
      });
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
  return prepare_with<gpu::JdsPlan>(
      args, "jds", [](const auto& a) { return formats::to_jds(a, formats::long_row_cut(a.rows, a.nnz)); },
      [](const auto& j) {
        return fmt::format("jds {} diagonals, {} long rows ({} huge)", j.diag_offsets.size() - 1,
                           j.long_rows.count(), j.long_rows.huge);
      });
}

std::unique_ptr<SpmvPlan> prepare_jds_ell_sections(const PrepareArgs& args) {
  return prepare_sliced(args, gpu::SECTION_ROWS, std::max<std::int64_t>(args.spec.rows, 1), "jds_ell_sections");
}

std::unique_ptr<SpmvPlan> prepare_sell_c_sigma(const PrepareArgs& args) {
  return prepare_sliced(args, gpu::SELL_C, gpu::SELL_SIGMA, "sell_c_sigma");
}

}  // namespace tessera::spmv_impl

#endif  // TESSERA_HAVE_CUDA
