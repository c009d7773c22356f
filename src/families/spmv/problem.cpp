// The spmv pattern as the harness sees it: generated matrices (seeded),
// the reference answer per row, the per-row error bound (problem_check.hpp),
// the bytes model, and each format variant's preparation outside timing.
//
// Bytes model (Cost::bytes): the fewest bytes any CSR SpMV must move —
// values and column indices once (nnz * (sizeof(T) + 4)), row offsets once
// ((rows + 1) * 8), x once (cols * sizeof(T)), y written once and read once
// more when beta != 0. A format that moves more (ELL's padding, COO's row
// indices) shows it as a lower % of the ceiling; its footprint is in the
// row's note.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "families/register_all.hpp"
#include "families/spmv/check_run.hpp"
#include "families/spmv/contract.hpp"
#include "families/spmv/formats.hpp"
#include "families/spmv/matrices.hpp"
#include "families/spmv/policy.hpp"
#include "families/spmv/problem_check.hpp"
#include "harness/generate.hpp"
#include "tessera/spmv.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <chrono>

#include "families/spmv/cuda_rungs.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using spmv_impl::SpmvSpec;
using spmv_impl::SpmvVariant;
using spmv_impl::matrices::HostMatrix;

enum class Shape { laplace_2d, stencil_27, power_law, random, huge_row, no_entries };

// What a problem is, before it is built.
struct SpmvCase {
  Shape shape;
  Dtype dtype;
  std::int64_t side = 0;  // grid side (stencils) or rows (the others)
  std::int64_t cols = 0;  // random shapes: columns (0: square)
  double alpha = 1, beta = 0;
};

// The bench's power-law matrix: ~2M rows, mean 16, the longest rows 3e5 (a
// few past 1e5).
constexpr double POWER_LAW_MEAN = 16.0;
constexpr std::int64_t POWER_LAW_MAX = 300000;
constexpr std::int64_t GPU_LAPLACE_SIDE = 4096, CPU_LAPLACE_SIDE = 1024;
constexpr std::int64_t GPU_STENCIL_SIDE = 128, CPU_STENCIL_SIDE = 48;
constexpr std::int64_t GPU_POWER_ROWS = 1 << 21, CPU_POWER_ROWS = 1 << 17;

std::string_view shape_name(Shape s) {
  switch (s) {
    case Shape::laplace_2d: return "laplace2d";
    case Shape::stencil_27: return "stencil27";
    case Shape::power_law: return "powerlaw";
    case Shape::random: return "random";
    case Shape::huge_row: return "hugerow";
    case Shape::no_entries: return "nonzeros0";
  }
  return "?";
}

std::string case_label(const SpmvCase& c) {
  std::string shape;
  switch (c.shape) {
    case Shape::laplace_2d: shape = fmt::format("laplace2d {}^2", c.side); break;
    case Shape::stencil_27: shape = fmt::format("stencil27 {}^3", c.side); break;
    case Shape::power_law: shape = fmt::format("powerlaw rows={}", c.side); break;
    default: shape = fmt::format("{} {}x{}", shape_name(c.shape), c.side, c.cols ? c.cols : c.side);
  }
  const std::string ab = c.beta != 0 || c.alpha != 1 ? fmt::format(" alpha={} beta={}", c.alpha, c.beta) : "";
  return fmt::format("{} {}{}", to_string(c.dtype), shape, ab);
}

template <class T>
HostMatrix<T> build(const SpmvCase& c, std::uint64_t seed) {
  namespace m = spmv_impl::matrices;
  switch (c.shape) {
    case Shape::laplace_2d: return m::laplace_2d<T>(c.side, seed);
    case Shape::stencil_27: return m::stencil_27<T>(c.side, seed);
    case Shape::power_law: return m::power_law<T>(c.side, c.side, POWER_LAW_MEAN, POWER_LAW_MAX, seed);
    case Shape::random: return m::random_csr<T>({c.side, c.cols ? c.cols : c.side, 6.0, 0.2, 0}, seed);
    case Shape::huge_row: return m::random_csr<T>({c.side, c.cols ? c.cols : c.side, 3.0, 0.3, 20000}, seed);
    case Shape::no_entries: return m::random_csr<T>({c.side, c.cols ? c.cols : c.side, 0.0, 0.0, 0}, seed);
  }
  return {};
}

// Rough nonzeros of a case, for the size check before anything is built.
double nnz_estimate(const SpmvCase& c) {
  switch (c.shape) {
    case Shape::laplace_2d: return 5.0 * double(c.side) * double(c.side);
    case Shape::stencil_27: return 27.0 * double(c.side) * double(c.side) * double(c.side);
    case Shape::power_law: return POWER_LAW_MEAN * double(c.side);
    default: return 6.0 * double(c.side) + 20000;
  }
}
double rows_estimate(const SpmvCase& c) {
  switch (c.shape) {
    case Shape::laplace_2d: return double(c.side) * double(c.side);
    case Shape::stencil_27: return double(c.side) * double(c.side) * double(c.side);
    default: return double(c.side);
  }
}

template <class T>
class SpmvProblem;

template <class T>
class SpmvInstance final : public Instance {
 public:
  SpmvInstance(SpmvProblem<T>& p, const SpmvVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  SpmvProblem<T>& problem_;
  const SpmvVariant& variant_;
  std::unique_ptr<spmv_impl::SpmvPlan> plan_;
  double convert_ms_ = 0;  // the preparation, wall clock (reported in the note, never in the timed rows)
  std::vector<unsigned char> host_ws_;
  std::vector<T> host_y_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_, dev_y_;
#endif
};

template <class T>
class SpmvProblem final : public Problem {
 public:
  SpmvProblem(const SpmvCase& c, std::uint64_t seed, bool gpu)
      : case_(c), gpu_(gpu), m_(build<T>(c, seed)), x_(std::size_t(std::max<std::int64_t>(m_.cols, 1))) {
    spec_ = {dtype_of<T>(), m_.rows, m_.cols, m_.nnz()};
    desc_ = {"spmv", case_label(c), std::string(to_string(c.dtype)), std::string(shape_name(c.shape)), "",
             "uniform", {std::size_t(m_.rows), std::size_t(m_.cols), std::size_t(m_.nnz())}};
    fill_random(x_.data(), x_.size(), seed ^ 0x7A, Distribution::uniform);
    if (c.beta != 0) {
      y0_.resize(std::size_t(m_.rows));
      fill_random(y0_.data(), y0_.size(), seed ^ 0x70, Distribution::uniform);
    }
    stats_ = spmv_impl::formats::row_stats(m_.view());
    expected_ = std::make_unique<spmv_impl::check::Expected<T>>(m_.view(), x_.data(), y0_.data(), c.alpha, c.beta);
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_off_ = upload(m_.offsets, "spmv row offsets");
      dev_col_ = upload(m_.col, "spmv columns");
      dev_val_ = upload(m_.val, "spmv values");
      dev_x_ = upload(x_, "spmv x");
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    const double vb = sizeof(T);
    const double bytes = double(m_.nnz()) * (vb + 4) + double(m_.rows + 1) * 8 + double(m_.cols) * vb +
                         double(m_.rows) * vb * (case_.beta != 0 ? 2 : 1);
    return {bytes, 2.0 * double(m_.nnz()), Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const SpmvVariant* sv = spmv_impl::variants_ladder().find(v.name);
    return sv != nullptr && (v.backend == Backend::cpu || gpu_) && sv->supports(spec_) && fits(v.name);
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    if (!fits(v.name))
      return fmt::format("{}: the padded format would pass {}x the CSR bytes on {} (longest row {})", v.name,
                         spmv_impl::formats::ELL_MAX_FOOTPRINT, desc_.label, stats_.max_length);
#if TESSERA_HAVE_CUDA
    if (v.name == std::string_view("cusparse_spmv") && spmv_impl::vendor_refuses_duplicates(spec_))
      return fmt::format("cusparse_spmv: not run on {}: {} entries in {} cells (duplicate (row, col) entries, which "
                         "cuSPARSE refuses and tessera's rungs sum)",
                         desc_.label, spec_.nnz, spec_.rows * spec_.cols);
#endif
    return Problem::why_unsupported(v);
  }
  // The plan's pick (tessera::spmv_plan: by the row-length statistics), the
  // API a solver that multiplies many times uses; the rows time the SpMV
  // with the format built, as a plan runs it.
  std::string api_pick(bool gpu) const override {
    return spmv_plan_variant(spec_.dtype, spec_.cols,
                             spmv_impl::row_length_stats(stats_, spec_.rows, spec_.nnz), gpu);
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<SpmvInstance<T>>(*this, spmv_impl::variants_ladder().at(v.name, "spmv"));
  }

  const SpmvSpec& spec() const { return spec_; }
  const SpmvCase& spmv_case() const { return case_; }
  spmv_impl::CsrArrays host_arrays() const { return {m_.offsets.data(), m_.col.data(), m_.val.data()}; }
  const T* host_x() const { return x_.data(); }
  const std::vector<T>& y0() const { return y0_; }
  CheckResult compare(const T* got) const { return expected_->compare(got); }
#if TESSERA_HAVE_CUDA
  spmv_impl::CsrArrays device_arrays() const {
    return {static_cast<const std::int64_t*>(dev_off_.data()), static_cast<const std::int32_t*>(dev_col_.data()),
            dev_val_.data()};
  }
  const T* device_x() const { return static_cast<const T*>(dev_x_.data()); }
#endif

 private:
  // The padded formats, refused where their padding would explode (ELL on a
  // power-law matrix): ell by its width, the sliced ones by their cells.
  bool fits(std::string_view name) const {
    namespace f = spmv_impl::formats;
    if (name == "ell") return f::ell_fits(m_.rows, stats_.max_length, m_.nnz(), sizeof(T));
    return true;
  }

#if TESSERA_HAVE_CUDA
  template <class V>
  static DeviceBytes upload(const std::vector<V>& v, const char* what) {
    DeviceBytes d(std::max<std::size_t>(v.size() * sizeof(V), 16), what);
    d.upload(v.data(), v.size() * sizeof(V));
    return d;
  }
  DeviceBytes dev_off_, dev_col_, dev_val_, dev_x_;
#endif
  SpmvCase case_;
  bool gpu_;
  HostMatrix<T> m_;
  std::vector<T> x_, y0_;
  SpmvSpec spec_{};
  ProblemDesc desc_;
  spmv_impl::formats::RowStats stats_;
  std::unique_ptr<spmv_impl::check::Expected<T>> expected_;
};

template <class T>
SpmvInstance<T>::SpmvInstance(SpmvProblem<T>& p, const SpmvVariant& v) : problem_(p), variant_(v) {
  const SpmvSpec& s = p.spec();
  const std::size_t ws = v.workspace_bytes(s);
  if (v.info.backend == Backend::cpu) {
    host_ws_.resize(ws);
    host_y_.resize(std::size_t(std::max<std::int64_t>(s.rows, 1)));
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_ws_ = DeviceBytes(ws, "spmv workspace");
  dev_y_ = DeviceBytes(std::max<std::size_t>(std::size_t(s.rows) * sizeof(T), 16), "spmv y");
  // The format (or the vendor's descriptor): built here, outside timing, and
  // timed on its own (from the device CSR where the conversion runs on the
  // GPU; from the host CSR for the host conversions).
  if (v.prepare != nullptr) {
    TESSERA_CUDA(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    plan_ = v.prepare({s, p.host_arrays(), p.device_arrays(), nullptr});
    TESSERA_CUDA(cudaDeviceSynchronize());
    convert_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
#endif
}

template <class T>
void SpmvInstance<T>::run(stream_t stream) {
  const SpmvSpec& s = problem_.spec();
  const auto& c = problem_.spmv_case();
  if (variant_.info.backend == Backend::cpu) {
    variant_.run({s, problem_.host_arrays(), problem_.host_x(), host_y_.data(), c.alpha, c.beta, nullptr,
                  host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({s, problem_.device_arrays(), problem_.device_x(), dev_y_.data(), c.alpha, c.beta, plan_.get(),
                dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

template <class T>
CheckResult SpmvInstance<T>::check(stream_t stream) {
  const SpmvSpec& s = problem_.spec();
  const auto rows = std::size_t(s.rows);
  const std::vector<T>& y0 = problem_.y0();
  std::vector<T> got(std::max<std::size_t>(rows, 1));
  if (variant_.info.backend == Backend::cpu)
    got = spmv_impl::y_after_host_run(y0, host_y_, [&] { run(stream); });
#if TESSERA_HAVE_CUDA
  else
    got = spmv_impl::y_after_device_run(y0, rows, dev_y_, stream, [&] { run(stream); });
#endif
  CheckResult r = problem_.compare(got.data());
  r.note = plan_ ? fmt::format("{}; prepared in {:.2f} ms (not in the timed SpMV)", plan_->note, convert_ms_)
                 : fmt::format("csr: {:.1f} MB ({} B)", double(spmv_impl::csr_bytes(s)) / 1e6, spmv_impl::csr_bytes(s));
  return r;
}

std::unique_ptr<Problem> make_problem(const SpmvCase& c, std::uint64_t seed, bool gpu) {
  if (c.dtype == Dtype::f64) return std::make_unique<SpmvProblem<double>>(c, seed, gpu);
  return std::make_unique<SpmvProblem<float>>(c, seed, gpu);
}

ProblemFactory factory(const SpmvCase& c, std::uint64_t seed, bool gpu) {
  const double vb = c.dtype == Dtype::f64 ? 8 : 4;
  const double nnz = nnz_estimate(c), rows = rows_estimate(c);
  // Host: the matrix, x, y0, the checked copy and the reference (32 B a row);
  // device: the matrix, x, y and a format of about the same size.
  const double matrix = nnz * (vb + 4) + rows * 8;
  return {case_label(c), [=] { return make_problem(c, seed, gpu); },
          {.host_bytes = matrix + rows * (3 * vb + 32),
           .device_bytes = gpu ? 2 * matrix + rows * 2 * vb : 0,
           .host_flops = 2 * nnz}};
}

std::vector<Dtype> types_of(const RunOptions& o) {
  if (o.type) return {*o.type};
  return {Dtype::f32, Dtype::f64};
}

class SpmvPattern final : public Pattern {
 public:
  std::string_view name() const override { return "spmv"; }
  std::string_view size_meaning() const override {
    return "rows (the stencils round to a grid side: sqrt or cbrt of it)";
  }
  std::vector<VariantInfo> variants() const override { return spmv_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<SpmvCase> cases;
    for (Dtype t : types_of(o)) {
      if (o.size) {
        cases.push_back({Shape::random, t, std::int64_t(*o.size), 0, -1.5, 0.5});
        continue;
      }
      // Edge shapes: 0 rows, 1x1, duplicates, no nonzeros at all, rectangular both ways,
      // many empty rows, one huge row; then a stencil and a power-law matrix.
      cases.push_back({Shape::random, t, 0, 7, 1, 0});
      cases.push_back({Shape::random, t, 1, 1, 1, 0});
      // Duplicate (row, col) entries (about 18 in 6 cells): every tessera
      // rung sums them; the vendor declines the shape (not run, with why).
      cases.push_back({Shape::random, t, 3, 2, 1, 0.5});
      cases.push_back({Shape::no_entries, t, 500, 300, 1, 0.5});
      cases.push_back({Shape::random, t, 1000, 37, -1.5, 0.5});
      cases.push_back({Shape::huge_row, t, 3001, 0, 1, 0});
      cases.push_back({Shape::laplace_2d, t, 33, 0, 1, 0});
      if (o.quick) continue;
      cases.push_back({Shape::random, t, 37, 5000, 1, 0});
      cases.push_back({Shape::random, t, 100003, 0, 2, 0});
      cases.push_back({Shape::huge_row, t, 200000, 0, -1.5, 0.5});
      cases.push_back({Shape::stencil_27, t, 31, 0, 1, 0.25});
      cases.push_back({Shape::power_law, t, 100000, 0, 1, 0});
    }
    std::vector<ProblemFactory> out;
    for (std::size_t i = 0; i < cases.size(); ++i) out.push_back(factory(cases[i], o.seed + i, o.gpu));
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const bool gpu = o.gpu;
    std::int64_t lap = gpu ? GPU_LAPLACE_SIDE : CPU_LAPLACE_SIDE;
    std::int64_t sten = gpu ? GPU_STENCIL_SIDE : CPU_STENCIL_SIDE;
    std::int64_t power = gpu ? GPU_POWER_ROWS : CPU_POWER_ROWS;
    if (o.size) {
      lap = std::max<std::int64_t>(1, std::int64_t(std::llround(std::sqrt(double(*o.size)))));
      sten = std::max<std::int64_t>(1, std::int64_t(std::llround(std::cbrt(double(*o.size)))));
      power = std::int64_t(*o.size);
    }
    std::vector<ProblemFactory> out;
    if (o.headline) {  // the Laplacian and the power-law matrix, float
      out.push_back(factory({Shape::laplace_2d, Dtype::f32, lap}, o.seed, gpu));
      out.push_back(factory({Shape::power_law, Dtype::f32, power}, o.seed, gpu));
      return out;
    }
    for (Dtype t : types_of(o)) {
      out.push_back(factory({Shape::laplace_2d, t, lap}, o.seed, gpu));
      out.push_back(factory({Shape::stencil_27, t, sten}, o.seed, gpu));
      out.push_back(factory({Shape::power_law, t, power}, o.seed, gpu));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Pattern> make_spmv_pattern() { return std::make_unique<SpmvPattern>(); }

}  // namespace tessera::harness
