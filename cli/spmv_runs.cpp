#include "spmv_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "families/spmv/contract.hpp"
#include "families/spmv/formats.hpp"
#include "families/spmv/problem_check.hpp"
#include "harness/timing.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "families/spmv/plans.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::cli::spmv_runs {

namespace {

using spmv_impl::CsrArrays;
using spmv_impl::SpmvSpec;
using spmv_impl::SpmvVariant;
namespace fmts = spmv_impl::formats;

// The sliced formats' shapes, as the rungs build them (plans.hpp).
constexpr std::int64_t SECTION_ROWS = 256, SELL_C = 32, SELL_SIGMA = 1024;
#if TESSERA_HAVE_CUDA
static_assert(SECTION_ROWS == spmv_impl::gpu::SECTION_ROWS && SELL_C == spmv_impl::gpu::SELL_C &&
              SELL_SIGMA == spmv_impl::gpu::SELL_SIGMA);
#endif

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

template <class T>
Csr<T> view(const mm::Csr<T>& a) {
  return {a.rows, a.cols, a.nnz(), a.row_offsets.data(), a.col_indices.data(), a.values.data()};
}
template <class T>
SpmvSpec spec_of(const mm::Csr<T>& a) {
  return {sizeof(T) == 8 ? Dtype::f64 : Dtype::f32, a.rows, a.cols, a.nnz()};
}

harness::TimingOptions timing(int repeat) {
  // Exactly `repeat` timed repetitions, whatever they cost: with no budget
  // the count is clamped up to min_reps (timing.cpp's reps_for).
  return {.warmup = 1, .min_reps = repeat, .max_reps = repeat, .budget_ms = 0};
}

// inf or NaN in A or x makes rows of the reference non-finite, which the
// bound cannot judge: such a run is reported unchecked rather than wrong.
template <class T>
bool all_finite(const mm::Csr<T>& a, const std::vector<T>& x) {
  const auto finite = [](T v) { return std::isfinite(v); };
  return std::all_of(a.values.begin(), a.values.end(), finite) && std::all_of(x.begin(), x.end(), finite);
}

// The long-double reference y and its per-row bounds (problem_check.hpp).
template <class T>
struct Reference {
  spmv_impl::check::Expected<T> expected;
  bool checkable;
  Reference(const mm::Csr<T>& a, const std::vector<T>& x)
      : expected(view(a), x.data(), nullptr, 1.0, 0.0), checkable(all_finite(a, x)) {}
};

template <class T>
void check_into(Row& row, const Reference<T>& ref, const std::vector<T>& y) {
  if (!ref.checkable) {
    row.ok = true;
    row.detail = "unchecked: A or x holds inf or NaN";
    return;
  }
  const harness::CheckResult c = ref.expected.compare(y.data());
  row.ok = c.ok;
  row.max_rel_err = c.max_rel_err;
  row.detail = c.detail;
}

template <class T>
void run_on_host(Row& row, const SpmvVariant& v, const mm::Csr<T>& a, const std::vector<T>& x,
                 const Reference<T>& expected, int repeat) {
  const SpmvSpec spec = spec_of(a);
  const CsrArrays arrays{a.row_offsets.data(), a.col_indices.data(), a.values.data()};
  std::vector<T> y(std::size_t(a.rows), std::numeric_limits<T>::quiet_NaN());  // an unwritten row fails
  std::vector<unsigned char> workspace(v.workspace_bytes(spec));
  std::unique_ptr<spmv_impl::SpmvPlan> plan;
  if (v.prepare) {
    const auto t0 = Clock::now();
    plan = v.prepare({spec, arrays, arrays, nullptr});
    row.convert_ms = ms_since(t0);
  }
  row.footprint_bytes = plan ? plan->footprint_bytes : spmv_impl::csr_bytes(spec);
  if (plan) row.note = plan->note;
  const auto once = [&] {
    v.run({spec, arrays, x.data(), y.data(), 1.0, 0.0, plan.get(), workspace.data(), nullptr});
  };
  once();
  check_into(row, expected, y);
  const harness::Timing t = harness::time_cpu(once, timing(repeat));
  row.spmv_ms = t.median_ms;
  row.reps = t.reps;
  row.ran = true;
}

#if TESSERA_HAVE_CUDA
class Stream {
 public:
  Stream() { TESSERA_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { (void)cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { TESSERA_CUDA(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

// A, x and y on the device.
template <class T>
struct OnDevice {
  DeviceBuffer<std::int64_t> offsets;
  DeviceBuffer<std::int32_t> columns;
  DeviceBuffer<T> values, x, y;
  OnDevice(const mm::Csr<T>& a, const std::vector<T>& hx)
      : offsets(a.row_offsets.size(), "spmv row offsets"),
        columns(a.col_indices.size(), "spmv column indices"),
        values(a.values.size(), "spmv values"),
        x(hx.size(), "spmv x"),
        y(std::size_t(a.rows), "spmv y") {
    offsets.upload(a.row_offsets.data(), a.row_offsets.size());
    columns.upload(a.col_indices.data(), a.col_indices.size());
    values.upload(a.values.data(), a.values.size());
    x.upload(hx.data(), hx.size());
  }
  CsrArrays arrays() const { return {offsets.data(), columns.data(), values.data()}; }
  std::vector<T> download_y(const Stream& s) const {
    s.sync();  // the stream does not synchronise with the copy's default stream
    std::vector<T> out(y.size());
    y.download(out.data(), out.size());
    return out;
  }
};

template <class T>
void run_on_device(Row& row, const SpmvVariant& v, const mm::Csr<T>& a, OnDevice<T>& d, const Stream& stream,
                   const Reference<T>& expected, int repeat) {
  const SpmvSpec spec = spec_of(a);
  const CsrArrays host{a.row_offsets.data(), a.col_indices.data(), a.values.data()};
  DeviceBytes workspace(v.workspace_bytes(spec), "spmv workspace");
  std::unique_ptr<spmv_impl::SpmvPlan> plan;
  if (v.prepare) {
    stream.sync();
    const auto t0 = Clock::now();
    try {
      plan = v.prepare({spec, host, d.arrays(), stream.get()});
    } catch (const Error& e) {  // a format refused for this matrix (ell's padding), or too large for the GPU
      row.why_not = e.what();
      return;
    }
    stream.sync();
    row.convert_ms = ms_since(t0);
  }
  row.footprint_bytes = plan ? plan->footprint_bytes : spmv_impl::csr_bytes(spec);
  if (plan) row.note = plan->note;
  const auto once = [&](stream_t s) {
    v.run({spec, d.arrays(), d.x.data(), d.y.data(), 1.0, 0.0, plan.get(), workspace.data(), s});
  };
  d.y.fill_bytes(0xFF, stream.get());  // NaN: an unwritten row fails
  once(stream.get());
  check_into(row, expected, d.download_y(stream));
  const harness::Timing t = harness::time_gpu(once, stream.get(), timing(repeat));
  row.spmv_ms = t.median_ms;
  row.reps = t.reps;
  row.graph = t.graph;
  row.ran = true;
}
#endif

}  // namespace

std::string_view format_of(std::string_view v) {
  if (v.starts_with("coo")) return "coo";
  if (v == "ell") return "ell";
  if (v == "hyb") return "hyb";
  if (v == "jds") return "jds";
  if (v == "jds_ell_sections" || v.starts_with("sell")) return "sell";
  return "csr";  // cpu_*, csr_*, cusparse_spmv: the CSR arrays as given
}

template <class T>
std::vector<Row> run_variants(const mm::Csr<T>& a, const std::vector<T>& x, const std::vector<std::string>& names,
                              bool gpu, int repeat) {
  const Reference<T> expected(a, x);
  const auto& ladder = spmv_impl::variants_ladder();
  std::vector<Row> rows;
#if TESSERA_HAVE_CUDA
  std::unique_ptr<Stream> stream;
  std::unique_ptr<OnDevice<T>> device;
  if (gpu) {
    stream = std::make_unique<Stream>();
    device = std::make_unique<OnDevice<T>>(a, x);
  }
#else
  (void)gpu;
#endif
  for (const std::string& name : names) {
    const SpmvVariant& v = ladder.at(name, "tessera spmv");
    Row& row = rows.emplace_back();
    row.variant = name;
    row.format = std::string(format_of(name));
    if (!v.supports(spec_of(a))) {
      row.why_not = "does not support this matrix (the formats index rows in 32 bits)";
      continue;
    }
    if (v.info.backend == Backend::cpu) {
      run_on_host(row, v, a, x, expected, repeat);
      continue;
    }
#if TESSERA_HAVE_CUDA
    run_on_device(row, v, a, *device, *stream, expected, repeat);
#endif
  }
  return rows;
}

template <class T>
std::vector<T> run_api(const mm::Csr<T>& a, const std::vector<T>& x, bool gpu, Row& row) {
  const Reference<T> expected(a, x);
  row.variant = spmv_plan_variant(spec_of(a).dtype, a.cols, spmv_row_stats_host(view(a)), gpu);
  row.format = std::string(format_of(row.variant));
  std::vector<T> y(std::size_t(a.rows), std::numeric_limits<T>::quiet_NaN());
#if TESSERA_HAVE_CUDA
  if (gpu) {
    const Stream stream;
    OnDevice<T> d(a, x);
    d.y.fill_bytes(0xFF, stream.get());
    // The API's plan (its pick by the row-length statistics, converted once).
    const auto plan = spmv_plan(Csr<T>{a.rows, a.cols, a.nnz(), d.offsets.data(), d.columns.data(), d.values.data()},
                                {.stream = stream.get()});
    row.variant = plan.variant();
    row.format = std::string(format_of(row.variant));
    spmv(plan, d.x.data(), d.y.data(), {.stream = stream.get()});
    y = d.download_y(stream);
  }
#else
  (void)gpu;
#endif
  if (!gpu) spmv(view(a), x.data(), y.data());
  check_into(row, expected, y);
  row.ran = true;
  return y;
}

template <class T>
std::vector<Footprint> host_footprints(const mm::Csr<T>& a, const std::vector<std::string>& formats) {
  const Csr<T> c = view(a);
  std::vector<Footprint> out;
  const auto timed = [&](std::string format, auto&& convert, auto&& note) {
    const auto t0 = Clock::now();
    const auto f = convert();
    out.push_back({std::move(format), f.bytes(), ms_since(t0), note(f), false});
  };
  for (const std::string& format : formats) {
    if (format == "csr") {
      out.push_back({"csr", spmv_impl::csr_bytes(spec_of(a)), 0, "the arrays as read", false});
    } else if (format == "coo") {
      timed("coo", [&] { return fmts::to_coo(c); },
            [](const auto& f) { return fmt::format("{} empty rows listed", f.empty_rows.size()); });
    } else if (format == "ell") {
      const std::int64_t width = fmts::row_stats(c).max_length;
      if (!fmts::ell_fits(a.rows, width, a.nnz(), sizeof(T))) {
        out.push_back({"ell", std::size_t(fmts::ell_bytes(a.rows, width, sizeof(T))), 0,
                       fmt::format("refused: width {} passes {}x the CSR bytes", width, fmts::ELL_MAX_FOOTPRINT),
                       true});
        continue;
      }
      timed("ell", [&] { return fmts::to_ell(c, width); },
            [](const auto& f) { return fmt::format("width {}", f.width); });
    } else if (format == "hyb") {
      timed("hyb", [&] { return fmts::to_hyb(c, fmts::choose_hyb_width(fmts::row_stats(c), a.rows, sizeof(T))); },
            [](const auto& f) { return fmt::format("ell width {} + {} coo entries", f.ell.width, f.coo.val.size()); });
    } else if (format == "jds") {
      timed("jds", [&] { return fmts::to_jds(c); },
            [](const auto& f) { return fmt::format("{} diagonals", f.diag_offsets.size() - 1); });
    } else if (format == "sell") {
      const auto cells = [&](const auto& f) {
        return fmt::format("{} slices of {} rows, {:.3f} cells a nonzero", f.slices(), f.height,
                           a.nnz() > 0 ? double(f.col.size()) / double(a.nnz()) : 1.0);
      };
      const std::int64_t global_sort = std::max<std::int64_t>(a.rows, 1);
      timed("sell (jds_ell_sections)", [&] { return fmts::to_sliced(c, SECTION_ROWS, global_sort); }, cells);
      timed("sell (sell_c_sigma)", [&] { return fmts::to_sliced(c, SELL_C, SELL_SIGMA); }, cells);
    }
  }
  return out;
}

#define TESSERA_SPMV_RUNS(T)                                                                                      \
  template std::vector<Row> run_variants<T>(const mm::Csr<T>&, const std::vector<T>&,                             \
                                            const std::vector<std::string>&, bool, int);                          \
  template std::vector<T> run_api<T>(const mm::Csr<T>&, const std::vector<T>&, bool, Row&);                       \
  template std::vector<Footprint> host_footprints<T>(const mm::Csr<T>&, const std::vector<std::string>&);
TESSERA_SPMV_RUNS(float)
TESSERA_SPMV_RUNS(double)
#undef TESSERA_SPMV_RUNS

}  // namespace tessera::cli::spmv_runs
