// The spmv_batched pattern as the harness sees it: generated batches
// (batches.hpp, seeded), the reference answer through cpu_reference, a
// per-row error bound, the bytes model, and cusparse_loop's descriptors
// prepared outside timing.
//
// Bytes model: spmv's summed over the batch — values and columns once
// (nnz * (sizeof(T) + 4)), every matrix's offsets once ((rows + count) * 8),
// x once, y written (and read once more when beta != 0) — plus the three
// starts arrays ((count + 1) * 24).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "families/register_all.hpp"
#include "families/spmv/check_run.hpp"
#include "families/spmv/batched.hpp"
#include "families/spmv/batches.hpp"
#include "harness/generate.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

namespace b = spmv_impl::batched;
using spmv_impl::batches::BatchShape;
using spmv_impl::batches::HostBatch;

// The bench batch: 10,000 square matrices of 100-2,000 rows, a quarter
// banded, the rest random rows of 1-40 entries (about 215M nonzeros).
constexpr std::int64_t GPU_BENCH_COUNT = 10000, CPU_BENCH_COUNT = 200;

struct BatchCase {
  Dtype dtype;
  BatchShape shape;
  double alpha = 1, beta = 0;
  const char* what;  // "mixed", "edges", "tiny", "same-pattern"
};

std::string case_label(const BatchCase& c) {
  const std::string ab = c.beta != 0 || c.alpha != 1 ? fmt::format(" alpha={} beta={}", c.alpha, c.beta) : "";
  return fmt::format("{} {} count={} rows={}-{} len={}-{}{}", to_string(c.dtype), c.what, c.shape.count,
                     c.shape.min_rows, c.shape.max_rows, c.shape.min_len, c.shape.max_len, ab);
}

template <class T>
std::vector<T> random_values(std::int64_t n, std::uint64_t seed) {
  std::vector<T> v(std::size_t(std::max<std::int64_t>(n, 1)));
  fill_random(v.data(), v.size(), seed, Distribution::uniform);
  return v;
}

template <class T>
class BatchProblem;

template <class T>
class BatchInstance final : public Instance {
 public:
  BatchInstance(BatchProblem<T>& p, const b::BatchVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  BatchProblem<T>& p_;
  const b::BatchVariant& v_;
  std::unique_ptr<b::BatchPlan> plan_;
  std::vector<T> host_y_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_, dev_y_;
#endif
};

template <class T>
class BatchProblem final : public Problem {
 public:
  BatchProblem(const BatchCase& c, std::uint64_t seed, bool gpu)
      : case_(c), gpu_(gpu), h_(spmv_impl::batches::random_batch<T>(c.shape, seed)) {
    const CsrBatch<T> v = h_.view();
    spec_ = {dtype_of<T>(), v.count, v.rows, v.cols, v.nnz};
    x_ = random_values<T>(v.cols, seed ^ 0x7A);
    if (c.beta != 0) y0_ = random_values<T>(v.rows, seed ^ 0x70);
    desc_ = {"spmv_batched", case_label(c), std::string(to_string(c.dtype)), c.what, "", "uniform",
             {std::size_t(v.count), std::size_t(v.rows), std::size_t(v.nnz)}};
    expected_.resize(std::size_t(std::max<std::int64_t>(v.rows, 1)));
    if (!y0_.empty()) std::copy(y0_.begin(), y0_.end(), expected_.begin());
    b::run_cpu_reference({spec_, host_arrays(), x_.data(), expected_.data(), c.alpha, c.beta, nullptr, nullptr,
                          nullptr});
    bound_ = row_bounds();
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_rs_ = upload(h_.row_starts);
      dev_cs_ = upload(h_.col_starts);
      dev_ns_ = upload(h_.nnz_starts);
      dev_off_ = upload(h_.offsets);
      dev_col_ = upload(h_.col);
      dev_val_ = upload(h_.val);
      dev_x_ = upload(x_);
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    const double vb = sizeof(T);
    const double bytes = double(spec_.nnz) * (vb + 4) + double(spec_.rows + spec_.count) * 8 +
                         double(spec_.count + 1) * 24 + double(spec_.cols) * vb +
                         double(spec_.rows) * vb * (case_.beta != 0 ? 2 : 1);
    return {bytes, 2.0 * double(spec_.nnz), Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    if (v.name == std::string_view("cusparse_strided") && !uniform()) return false;
    return v.backend == Backend::cpu || gpu_;
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    if (v.name == std::string_view("cusparse_strided") && !uniform())
      return "cusparse_strided: cuSPARSE's strided batch needs one shape for every matrix; this batch mixes shapes";
    return Problem::why_unsupported(v);
  }
  bool uniform() const {
    return b::uniform_shapes(h_.row_starts.data(), h_.col_starts.data(), h_.nnz_starts.data(), spec_.count);
  }
  std::string api_pick(bool gpu) const override { return gpu ? "batched_nnz_split" : "cpu_reference"; }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<BatchInstance<T>>(*this, b::variant_named(v.name, "spmv_batched"));
  }

  const b::BatchSpec& spec() const { return spec_; }
  const BatchCase& batch_case() const { return case_; }
  b::BatchArrays host_arrays() const {
    return {h_.row_starts.data(), h_.col_starts.data(), h_.nnz_starts.data(),
            h_.offsets.data(),    h_.col.data(),        h_.val.data()};
  }
  const T* host_x() const { return x_.data(); }
  const std::vector<T>& y0() const { return y0_; }
#if TESSERA_HAVE_CUDA
  b::BatchArrays device_arrays() const {
    return {static_cast<const std::int64_t*>(dev_rs_.data()),  static_cast<const std::int64_t*>(dev_cs_.data()),
            static_cast<const std::int64_t*>(dev_ns_.data()),  static_cast<const std::int64_t*>(dev_off_.data()),
            static_cast<const std::int32_t*>(dev_col_.data()), dev_val_.data()};
  }
  const T* device_x() const { return static_cast<const T*>(dev_x_.data()); }
#endif

  // Every row within its bound of the reference (NaN fails).
  CheckResult compare(const T* got) const {
    CheckResult r;
    r.ok = true;
    for (std::size_t i = 0; i < std::size_t(spec_.rows); ++i) {
      const double d = std::abs(double(got[i]) - double(expected_[i]));
      const double ref = std::abs(double(expected_[i]));
      r.max_rel_err = std::max(r.max_rel_err, ref > 0 ? d / ref : d);
      if (!(d <= bound_[i])) {
        if (r.ok) r.detail = fmt::format("row {}: got {}, want {} (bound {})", i, double(got[i]), double(expected_[i]), bound_[i]);
        r.ok = false;
      }
    }
    return r;
  }

 private:
  // A few roundings per term of the row's magnitude, as spmv's check.
  std::vector<double> row_bounds() const {
    std::vector<double> out(std::size_t(spec_.rows));
    const double eps = std::numeric_limits<T>::epsilon();
    for (std::int64_t m = 0; m < spec_.count; ++m) {
      const std::int64_t* off = h_.offsets.data() + h_.row_starts[m] + m;
      for (std::int64_t r = 0; r < h_.rows(m); ++r) {
        const std::int64_t g = h_.row_starts[m] + r;
        double mag = y0_.empty() ? 0 : std::abs(case_.beta * double(y0_[std::size_t(g)]));
        for (std::int64_t k = off[r]; k < off[r + 1]; ++k) {
          const std::size_t e = std::size_t(h_.nnz_starts[m] + k);
          mag += std::abs(case_.alpha * double(h_.val[e]) * double(x_[std::size_t(h_.col_starts[m] + h_.col[e])]));
        }
        out[std::size_t(g)] = 4 * eps * double(off[r + 1] - off[r] + 2) * mag + 1e-30;
      }
    }
    return out;
  }

#if TESSERA_HAVE_CUDA
  template <class V>
  static DeviceBytes upload(const std::vector<V>& v) {
    DeviceBytes d(std::max<std::size_t>(v.size() * sizeof(V), 16), "spmv_batched input");
    d.upload(v.data(), v.size() * sizeof(V));
    return d;
  }
  DeviceBytes dev_rs_, dev_cs_, dev_ns_, dev_off_, dev_col_, dev_val_, dev_x_;
#endif
  BatchCase case_;
  bool gpu_;
  HostBatch<T> h_;
  std::vector<T> x_, y0_, expected_;
  std::vector<double> bound_;
  b::BatchSpec spec_{};
  ProblemDesc desc_;
};

template <class T>
BatchInstance<T>::BatchInstance(BatchProblem<T>& p, const b::BatchVariant& v) : p_(p), v_(v) {
  const b::BatchSpec& s = p.spec();
  if (v.info.backend == Backend::cpu) {
    host_y_.resize(std::size_t(std::max<std::int64_t>(s.rows, 1)));
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_ws_ = DeviceBytes(v.workspace_bytes(s), "spmv_batched workspace");
  dev_y_ = DeviceBytes(std::max<std::size_t>(std::size_t(s.rows) * sizeof(T), 16), "spmv_batched y");
  if (v.prepare != nullptr) plan_ = v.prepare(s, p.host_arrays(), p.device_arrays(), nullptr);
#endif
}

template <class T>
void BatchInstance<T>::run(stream_t stream) {
  const b::BatchSpec& s = p_.spec();
  const BatchCase& c = p_.batch_case();
  if (v_.info.backend == Backend::cpu) {
    v_.run({s, p_.host_arrays(), p_.host_x(), host_y_.data(), c.alpha, c.beta, nullptr, nullptr, nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  v_.run({s, p_.device_arrays(), p_.device_x(), dev_y_.data(), c.alpha, c.beta, plan_.get(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

template <class T>
CheckResult BatchInstance<T>::check(stream_t stream) {
  const std::size_t rows = std::size_t(p_.spec().rows);
  const std::vector<T>& y0 = p_.y0();
  std::vector<T> got(std::max<std::size_t>(rows, 1));
  if (v_.info.backend == Backend::cpu)
    got = spmv_impl::y_after_host_run(y0, host_y_, [&] { run(stream); });
#if TESSERA_HAVE_CUDA
  else
    got = spmv_impl::y_after_device_run(y0, rows, dev_y_, stream, [&] { run(stream); });
#endif
  CheckResult r = p_.compare(got.data());
  r.note = plan_ ? plan_->note : fmt::format("workspace {} B", v_.workspace_bytes(p_.spec()));
  return r;
}

ProblemFactory factory(const BatchCase& c, std::uint64_t seed, bool gpu) {
  const double vb = c.dtype == Dtype::f64 ? 8 : 4;
  const double rows = double(c.shape.count) * double(c.shape.min_rows + c.shape.max_rows) / 2;
  const double nnz = rows * double(c.shape.min_len + c.shape.max_len) / 2 + 11 * rows;
  const double batch = nnz * (vb + 4) + rows * 8;
  return {case_label(c),
          [=]() -> std::unique_ptr<Problem> {
            if (c.dtype == Dtype::f64) return std::make_unique<BatchProblem<double>>(c, seed, gpu);
            return std::make_unique<BatchProblem<float>>(c, seed, gpu);
          },
          {.host_bytes = batch + rows * (3 * vb + 16), .device_bytes = gpu ? batch + rows * (2 * vb + 8) : 0,
           .host_flops = 2 * nnz}};
}

std::vector<Dtype> types_of(const RunOptions& o) {
  if (o.type) return {*o.type};
  return {Dtype::f32, Dtype::f64};
}

BatchShape bench_shape(std::int64_t count) {
  return {.count = count, .min_rows = 100, .max_rows = 2000, .min_len = 1, .max_len = 40, .banded = 0.25};
}
// The same-pattern batch (cuSPARSE's strided batch can run it): `count`
// copies of one 1,000-row pattern of 1-40 random entries a row (about 20.5),
// each with its own values: ~205M nonzeros at 10,000, as the mixed batch.
BatchShape same_pattern_shape(std::int64_t count) {
  return {.count = count, .min_rows = 1000, .max_rows = 1000, .min_len = 1, .max_len = 40, .same_pattern = true};
}

class BatchedSpmvPattern final : public Pattern {
 public:
  std::string_view name() const override { return "spmv_batched"; }
  std::string_view size_meaning() const override { return "matrices in the batch (100-2,000 rows each)"; }
  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out;
    for (const b::BatchVariant& v : b::variants()) out.push_back(v.info);
    return out;
  }
  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<BatchCase> cases;
    for (Dtype t : types_of(o)) {
      if (o.size) {
        cases.push_back({t, bench_shape(std::int64_t(*o.size)), -1.5, 0.5, "mixed"});
        continue;
      }
      cases.push_back({t, {.count = 60, .min_rows = 1, .max_rows = 300, .min_len = 0, .max_len = 40, .banded = 0.3,
                           .edges = true}, -1.5, 0.5, "edges"});
      cases.push_back({t, bench_shape(20), 1, 0, "mixed"});
      cases.push_back({t, same_pattern_shape(30), -1.5, 0.5, "same-pattern"});
      if (o.quick) continue;
      cases.push_back({t, {.count = 5000, .min_rows = 1, .max_rows = 3, .min_len = 1, .max_len = 3}, 1, 0, "tiny"});
      cases.push_back({t, bench_shape(1000), 2, 1, "mixed"});
    }
    std::vector<ProblemFactory> out;
    for (std::size_t i = 0; i < cases.size(); ++i) out.push_back(factory(cases[i], o.seed + i, o.gpu));
    return out;
  }
  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const std::int64_t count = o.size ? std::int64_t(*o.size) : o.gpu ? GPU_BENCH_COUNT : CPU_BENCH_COUNT;
    std::vector<ProblemFactory> out;
    if (o.headline) {
      out.push_back(factory({Dtype::f32, bench_shape(count), 1, 0, "mixed"}, o.seed, o.gpu));
      return out;
    }
    for (Dtype t : types_of(o)) {
      out.push_back(factory({t, bench_shape(count), 1, 0, "mixed"}, o.seed, o.gpu));
      out.push_back(factory({t, same_pattern_shape(count), 1, 0, "same-pattern"}, o.seed, o.gpu));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Pattern> make_spmv_batched_pattern() { return std::make_unique<BatchedSpmvPattern>(); }

}  // namespace tessera::harness
