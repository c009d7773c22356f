// The batched_scan pattern as the harness sees it: seeded inputs (uniform
// random rows for verify, seismic-like traces for bench), the exact reference
// (compensated long double, reference.hpp), per-element checks with a derived
// tolerance, error statistics for the precision report, and the cost model.
//
// Tolerance (docs/batched_scan.md, "Precision and determinism"). For output i
// of a row of length L, let s_i be the same scan applied to |x| (forward: sum
// of |x_k| over k <= i; forward_backward: the backward scan of the forward
// scan of |x|). Every rung computes y_i as some association of sums of x_k
// with non-negative multiplicities, so each rounding error is at most u_acc
// times a partial sum of |terms| <= s_i, and a chain of at most L roundings
// lies on any path. The forward result's errors add up in the backward pass,
// and the backward pass adds its own: k = 1 pass (forward, backward) or 2
// (forward_backward). Hence
//     |y_i - ref_i| <= (u_out + k * u_acc * c(L)) * s_i
// with u_out = 2^-24 (the final rounding to float), u_acc = 2^-24 native
// float, 2^-53 double, 2^-44 Kahan and double-float, and c(L) = 16 +
// 4 sqrt(L); Kahan adds 2u per pass (its compensation is inexact when a term
// outgrows the running sum: |error| <= (2u + O(L u^2)) sum |x|, Higham 4.3).
// Rounding errors of
// random data are independent, their sum grows like sqrt(L) (4 sigma) and 16
// covers the depth of the block and look-back trees. On the seismic traces
// (slowly varying, a DC offset) float roundings are not independent, so the
// bench's float checks use the rigorous worst case c(L) = L (Higham's
// gamma_L); the precision report measures the actual errors. Written as
// !(err <= tol): NaN fails. Unwritten outputs stay NaN (poison) and fail.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "families/batched_scan/reference.hpp"
#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "families/register_all.hpp"
#include "families/batched_scan/seismic_traces.hpp"
#include "families/batched_scan/contract.hpp"
#include "tessera/batched_scan.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using batched_scan_impl::ScanSpec;
using batched_scan_impl::ScanVariant;

enum class Data { uniform, constant, seismic };
enum class ErrorModel { random, rigorous };

std::string_view data_name(Data d) {
  switch (d) {
    case Data::uniform: return "uniform";
    case Data::constant: return "constant";
    case Data::seismic: return "seismic";
  }
  return "?";
}

// One problem: the scan, its memory layout and its data.
struct Setup {
  ScanSpec spec;
  std::size_t in_offset = 0;   // elements before row 0 of the input (misaligned bases)
  std::size_t out_offset = 0;  // same for the output (ignored in place)
  Data data = Data::uniform;
};

// Bit patterns: samples between len and the pitch of the input hold GAP (a
// NaN: a variant that reads them spoils its result); every element of an
// out-of-place output buffer starts as POISON (also a NaN).
constexpr std::uint32_t GAP_BITS = 0x7FC0A5A5u;
constexpr std::uint32_t POISON_BITS = 0xFFFFFFFFu;
constexpr int POISON_BYTE = 0xFF;

// Verification sizes are small; the inputs of bench problems are ~400 MB
// (10^8 floats: far past the 50 MB L2 of an H100); without a GPU ~16 MB.
constexpr std::size_t GPU_BENCH_ELEMS = 100'000'000;
constexpr std::size_t CPU_BENCH_ELEMS = 4'000'000;
// Inputs checked for modification by out-of-place variants up to this size
// (the download doubles the check's traffic).
constexpr std::size_t INPUT_CHECK_MAX = std::size_t(1) << 24;

std::string short_dir(ScanDirection d) {
  switch (d) {
    case ScanDirection::forward: return "fwd";
    case ScanDirection::backward: return "bwd";
    case ScanDirection::forward_backward: return "fb";
  }
  return "?";
}

std::string label_of(const Setup& s) {
  const ScanSpec& p = s.spec;
  std::string l = fmt::format("{}{} {} {}x{}", short_dir(p.direction), p.exclusive ? " excl" : "",
                              to_string(p.accum), p.rows, p.len);
  if (p.in_pitch != p.len || p.out_pitch != p.len) l += fmt::format(" pitch {}/{}", p.in_pitch, p.out_pitch);
  if (s.in_offset != 0 || s.out_offset != 0) l += fmt::format(" +{}/+{}", s.in_offset, s.out_offset);
  if (p.in_place) l += " in place";
  return l;
}

std::size_t span_of(std::size_t rows, std::size_t pitch, std::size_t len) {
  return rows == 0 || len == 0 ? 0 : (rows - 1) * pitch + len;
}

double acc_epsilon(Accum a) {
  switch (a) {
    case Accum::native: return 0x1.0p-24;
    case Accum::f64: return 0x1.0p-53;
    case Accum::kahan:
    case Accum::dfloat: return 0x1.0p-44;
  }
  return 0x1.0p-24;
}

// s_i of the header comment for one row, in double (|x| has no cancellation).
void abs_scan(const float* x, std::size_t len, ScanDirection dir, bool exclusive, std::vector<double>& s,
              std::vector<double>& f) {
  s.resize(len);
  if (dir == ScanDirection::backward) {
    double run = 0;
    for (std::size_t i = len; i-- > 0;) {
      const double before = run;
      run += std::fabs(double(x[i]));
      s[i] = exclusive ? before : run;
    }
    return;
  }
  double run = 0;
  double* fwd = dir == ScanDirection::forward ? s.data() : (f.resize(len), f.data());
  for (std::size_t i = 0; i < len; ++i) {
    const double before = run;
    run += std::fabs(double(x[i]));
    fwd[i] = exclusive ? before : run;
  }
  if (dir == ScanDirection::forward) return;
  run = 0;
  for (std::size_t i = len; i-- > 0;) {
    const double before = run;
    run += f[i];
    s[i] = exclusive ? before : run;
  }
}

class ScanProblem;

class ScanInstance final : public BoundInstance<ScanProblem, ScanVariant> {
 public:
  ScanInstance(const ScanProblem& p, const ScanVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  float* out_ptr();
  const float* in_ptr() const;

  std::vector<unsigned char> host_ws_;
  std::vector<float> host_out_;  // CPU variants: the output buffer (the working copy in place)
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_, dev_out_;  // dev_out_: the output buffer, or the in-place working copy
#endif
};

class ScanProblem final : public Problem {
 public:
  ScanProblem(const Setup& setup, ErrorModel model, std::uint64_t seed, bool gpu)
      : s_(setup), model_(model), gpu_(gpu) {
    const ScanSpec& p = s_.spec;
    desc_ = {"batched_scan", label_of(s_), "float", "sum", std::string(to_string(p.accum)),
             std::string(data_name(s_.data)), {p.rows, p.len}};
    // +1: a valid pointer even for an empty problem.
    input_.assign(s_.in_offset + span_of(p.rows, p.in_pitch, p.len) + 1, 0.0f);
    const float gap = std::bit_cast<float>(GAP_BITS);
    std::fill(input_.begin(), input_.end(), gap);
    float* rows0 = input_.data() + s_.in_offset;
    if (p.rows > 0 && p.len > 0) {
      if (s_.data == Data::seismic) {
        fill_seismic_traces(rows0, p.rows, p.len, p.in_pitch, seed);
      } else {
        const Distribution dist = s_.data == Data::constant ? Distribution::constant : Distribution::uniform;
        const auto rows = static_cast<std::int64_t>(p.rows);
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t r = 0; r < rows; ++r)
          fill_random(rows0 + static_cast<std::size_t>(r) * p.in_pitch, Dtype::f32, p.len,
                      mix64(seed, static_cast<std::uint64_t>(r)), dist);
      }
    }
    compute_expected();
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(input_.size() * sizeof(float), "batched_scan input");
      dev_input_.upload(input_.data(), input_.size() * sizeof(float));
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    const double n = double(s_.spec.rows) * double(s_.spec.len);
    const double passes = s_.spec.direction == ScanDirection::forward_backward ? 2.0 : 1.0;
    return {8.0 * n, passes * n, Bound::memory};  // one read and one write of every sample
  }
  bool supports(const VariantInfo& v) const override {
    const ScanVariant* sv = batched_scan_impl::find_variant(v.name);
    return sv != nullptr && (v.backend == Backend::cpu || gpu_) && sv->supports(s_.spec);
  }
  std::string api_pick(bool gpu) const override { return gpu ? batched_scan_default_variant(s_.spec.rows, s_.spec.len, s_.spec.accum, s_.spec.direction) : "cpu_openmp"; }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<ScanInstance>(*this, *batched_scan_impl::find_variant(v.name));
  }

  const Setup& setup() const { return s_; }
  const std::vector<float>& host_input() const { return input_; }
  std::size_t out_buffer_elems() const {
    return s_.spec.in_place ? input_.size() : s_.out_offset + span_of(s_.spec.rows, s_.spec.out_pitch, s_.spec.len) + 1;
  }
  // Offset and pitch of the output rows within the output buffer.
  std::size_t out_offset() const { return s_.spec.in_place ? s_.in_offset : s_.out_offset; }
#if TESSERA_HAVE_CUDA
  DeviceBytes& device_input() const { return dev_input_; }
#endif

  // Compares a whole output buffer (as the variant left it) with the
  // reference: every output within tolerance, every other element untouched.
  CheckResult compare(const std::vector<float>& buf) const;

 private:
  void compute_expected() {
    const ScanSpec& p = s_.spec;
    expected_.assign(p.rows * p.len, 0.0);
    if (p.rows == 0 || p.len == 0) return;
    const auto rows = static_cast<std::int64_t>(p.rows);
#pragma omp parallel
    {
      std::vector<long double> scratch;
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t r = 0; r < rows; ++r) {
        const auto row = static_cast<std::size_t>(r);
        batched_scan_impl::cpu::reference_row(input_.data() + s_.in_offset + row * p.in_pitch,
                                              expected_.data() + row * p.len, p.len, p.direction, p.exclusive,
                                              scratch);
      }
    }
  }

  Setup s_;
  ErrorModel model_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<float> input_;      // the whole input buffer: offset, rows, gaps
  std::vector<double> expected_;  // rows x len, unrounded reference
#if TESSERA_HAVE_CUDA
  mutable DeviceBytes dev_input_;  // mutable: restored if a variant wrote to its input
#endif
};

CheckResult ScanProblem::compare(const std::vector<float>& buf) const {
  const ScanSpec& p = s_.spec;
  const std::size_t off = out_offset();
  const std::size_t pitch = p.out_pitch;
  const double passes = p.direction == ScanDirection::forward_backward ? 2.0 : 1.0;
  const double L = static_cast<double>(p.len);
  const double growth =
      model_ == ErrorModel::rigorous && p.accum == Accum::native ? std::max(L, 16.0 + 4.0 * std::sqrt(L))
                                                                  : 16.0 + 4.0 * std::sqrt(L);
  // Kahan's compensation is not exact step by step: each output may err by
  // up to 2u of the sum of |terms| (Higham, Accuracy and Stability, 4.3).
  const double kahan_step = p.accum == Accum::kahan ? 0x1.0p-23 : 0.0;
  const double rel_tol = 0x1.0p-24 + passes * (acc_epsilon(p.accum) * growth + kahan_step);

  // Untouched elements: everything of the buffer that is not an output must
  // keep its bits (poison for a separate output, the input's gaps in place).
  std::size_t bad_untouched = 0, first_bad = buf.size();
  {
    const auto total = static_cast<std::int64_t>(buf.size());
#pragma omp parallel for reduction(+ : bad_untouched) reduction(min : first_bad)
    for (std::int64_t ii = 0; ii < total; ++ii) {
      const auto idx = static_cast<std::size_t>(ii);
      bool output = false;
      if (idx >= off && p.len > 0) {
        const std::size_t q = (idx - off) / pitch, rem = (idx - off) % pitch;
        output = q < p.rows && rem < p.len;
      }
      if (output) continue;
      const std::uint32_t want = p.in_place ? std::bit_cast<std::uint32_t>(input_[idx]) : POISON_BITS;
      if (std::bit_cast<std::uint32_t>(buf[idx]) != want) {
        ++bad_untouched;
        first_bad = std::min(first_bad, idx);
      }
    }
  }

  double max_rel = 0, sum_sq = 0, max_ulp = 0, sum_sq_ulp = 0;
  std::size_t failures = 0, first_row = p.rows;
  std::string first;
  const auto rows = static_cast<std::int64_t>(p.rows);
  if (p.len > 0) {
#pragma omp parallel
    {
      std::vector<double> s, f;
      double local_max = 0, local_sq = 0, local_max_ulp = 0, local_sq_ulp = 0;
      std::size_t local_fail = 0, local_row = p.rows;
      std::string local_first;
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t rr = 0; rr < rows; ++rr) {
        const auto r = static_cast<std::size_t>(rr);
        abs_scan(input_.data() + s_.in_offset + r * p.in_pitch, p.len, p.direction, p.exclusive, s, f);
        const float* y = buf.data() + off + r * pitch;
        const double* e = expected_.data() + r * p.len;
        for (std::size_t i = 0; i < p.len; ++i) {
          const double got = y[i];
          const double err = std::fabs(got - e[i]);
          const double tol = rel_tol * s[i];
          const double rel = e[i] != 0 ? err / std::fabs(e[i]) : err;
          if (!(err <= tol)) {
            if (local_fail++ == 0 || r < local_row) {
              local_row = r;
              local_first = fmt::format("row {} sample {}: got {:.9g}, expected {:.17g} (|diff| {:.3g} > tolerance {:.3g})",
                                        r, i, got, e[i], err, tol);
            }
          }
          if (std::isnan(rel)) local_max = std::numeric_limits<double>::infinity();
          else local_max = std::max(local_max, rel);
          local_sq += std::isfinite(rel) ? rel * rel : 0.0;
          const double ulps = ulps_from_rounded(y[i], e[i]);
          local_max_ulp = std::isnan(ulps) ? std::numeric_limits<double>::infinity() : std::max(local_max_ulp, ulps);
          local_sq_ulp += std::isfinite(ulps) ? ulps * ulps : 0.0;
        }
      }
#pragma omp critical
      {
        max_rel = std::max(max_rel, local_max);
        sum_sq += local_sq;
        max_ulp = std::max(max_ulp, local_max_ulp);
        sum_sq_ulp += local_sq_ulp;
        if (local_fail > 0 && local_row < first_row) {
          first_row = local_row;
          first = local_first;
        }
        failures += local_fail;
      }
    }
  }

  CheckResult c;
  const double n = double(p.rows) * double(p.len);
  c.max_rel_err = max_rel;
  c.rms_rel_err = n > 0 ? std::sqrt(sum_sq / n) : 0.0;
  c.max_ulp_err = max_ulp;
  c.rms_ulp_err = n > 0 ? std::sqrt(sum_sq_ulp / n) : 0.0;
  c.ok = failures == 0 && bad_untouched == 0;
  if (failures > 0) c.detail = fmt::format("{} of {} outputs wrong; first: {}", failures, p.rows * p.len, first);
  if (bad_untouched > 0)
    c.detail += fmt::format("{}{} elements outside the output rows were written (first at buffer index {})",
                            c.detail.empty() ? "" : "; ", bad_untouched, first_bad);
  return c;
}

ScanInstance::ScanInstance(const ScanProblem& p, const ScanVariant& v) : BoundInstance(p, v) {
  const std::size_t ws = v.workspace_bytes(p.setup().spec);
  if (on_host()) {
    host_ws_.resize(ws);
    host_out_.assign(p.out_buffer_elems(), 0.0f);
    if (p.setup().spec.in_place) host_out_ = p.host_input();
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_ws_ = DeviceBytes(ws, "batched_scan workspace");
  dev_out_ = DeviceBytes(p.out_buffer_elems() * sizeof(float), "batched_scan output");
  if (p.setup().spec.in_place) dev_out_.upload(p.host_input().data(), p.host_input().size() * sizeof(float));
#endif
}

float* ScanInstance::out_ptr() {
  const std::size_t off = problem_.out_offset();
  if (on_host()) return host_out_.data() + off;
#if TESSERA_HAVE_CUDA
  return static_cast<float*>(dev_out_.data()) + off;
#else
  return nullptr;
#endif
}

const float* ScanInstance::in_ptr() const {
  const Setup& s = problem_.setup();
  if (on_host())
    return s.spec.in_place ? host_out_.data() + s.in_offset : problem_.host_input().data() + s.in_offset;
#if TESSERA_HAVE_CUDA
  if (s.spec.in_place) return static_cast<const float*>(dev_out_.data()) + s.in_offset;
  return static_cast<const float*>(problem_.device_input().data()) + s.in_offset;
#else
  return nullptr;
#endif
}

void ScanInstance::run(stream_t stream) {
  const ScanSpec& spec = problem_.setup().spec;
  float* out = out_ptr();
  const float* in = in_ptr();
  if (on_host()) {
    variant_.run({spec, in, out, host_ws_.empty() ? nullptr : host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, in, out, dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult ScanInstance::check(stream_t stream) {
  const Setup& s = problem_.setup();
  const bool in_place = s.spec.in_place;
  const std::size_t n_in = problem_.host_input().size();
  if (on_host()) {
    if (in_place) host_out_ = problem_.host_input();
    else std::fill(host_out_.begin(), host_out_.end(), std::bit_cast<float>(POISON_BITS));
    run(stream);
    CheckResult c = problem_.compare(host_out_);
    return c;
  }
#if TESSERA_HAVE_CUDA
  if (in_place) dev_out_.upload(problem_.host_input().data(), n_in * sizeof(float));
  else TESSERA_CUDA(cudaMemsetAsync(dev_out_.data(), POISON_BYTE, dev_out_.bytes(), stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  run(stream);
  wait_for_run(stream);
  std::vector<float> got(problem_.out_buffer_elems());
  dev_out_.download(got.data(), got.size() * sizeof(float));
  CheckResult c = problem_.compare(got);
  if (!in_place && n_in <= INPUT_CHECK_MAX) {
    std::vector<float> after(n_in);
    problem_.device_input().download(after.data(), n_in * sizeof(float));
    if (std::memcmp(after.data(), problem_.host_input().data(), n_in * sizeof(float)) != 0) {
      c.ok = false;
      c.detail += std::string(c.detail.empty() ? "" : "; ") + "the input was modified";
      problem_.device_input().upload(problem_.host_input().data(), n_in * sizeof(float));
    }
  }
  return c;
#else
  (void)stream;
  (void)n_in;
  return {};
#endif
}

// ---- problem lists ---------------------------------------------------------

struct Shape {
  std::size_t rows, len;
  std::size_t in_pad = 0, out_pad = 0;  // pitch = len + pad
  std::size_t in_off = 0, out_off = 0;  // base offsets (elements)
  bool in_place = false;
};

// Edge shapes: empty, single samples, warp boundaries, the short-row limit
// (128), the fused row-per-block limits (1021, 3069, 7165, 11261: tile
// capacity - 3) and the long-row tile (3072) +/- 1, primes, many short rows.
// Pitches above len (odd ones: every row differently aligned), misaligned
// bases, in place.
const Shape VERIFY_SHAPES[] = {
    {0, 100},
    {4, 0},
    {1, 1},
    {3, 1, 2, 0, 1, 0},
    {7, 2},
    {33, 3, 1, 1, 0, 3},
    {1, 4},
    {5, 5, 0, 0, 1, 1, true},
    {31, 31},
    {32, 32, 1, 3, 1, 0},
    {33, 33, 0, 0, 0, 0, true},
    {2, 63},
    {64, 64, 4, 4, 0, 2},
    {17, 65, 1, 1, 3, 3, true},
    {9, 127},
    {100, 128, 3, 0, 0, 1},
    {3, 129},
    {4, 255, 1, 2, 2, 0},
    {5, 256},
    {3, 509, 0, 0, 1, 1, true},
    {2, 510},
    {3, 1021, 1, 3, 0, 1},
    {2, 1022},
    {2, 3069, 2, 2, 3, 3, true},
    {2, 3070, 1, 0, 1, 2},
    {3, 6142},
    {3, 7165, 0, 1, 0, 0},
    {2, 7166, 3, 3, 2, 2, true},
    {2, 9213, 1, 1, 1, 0},
    {2, 10000},
    {3, 11261, 1, 2, 3, 1},
    {2, 11262, 0, 0, 0, 0, true},
    {2, 12289, 3, 1, 0, 3},
    {2, 100003, 1, 1, 2, 2, true},
    {1, 1000003, 0, 3, 1, 0},
    {1000, 32, 0, 0, 0, 0},
    {2000, 7, 1, 1, 1, 1, true},
    {300, 100, 5, 0, 2, 0},
    {97, 1000, 0, 0, 0, 0},
    {513, 2049, 1, 1, 3, 3, true},
};

// For the sanitizers: one of each path, small.
const Shape QUICK_SHAPES[] = {
    {1, 1}, {33, 33, 1, 3, 1, 0}, {5, 129, 0, 0, 1, 1, true}, {3, 1021}, {2, 10000, 1, 1, 3, 3, true},
    {2, 12289, 3, 1, 0, 3}, {300, 32}, {7, 3070, 1, 0, 2, 1},
};

constexpr Accum ACCUMS[] = {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat};
constexpr ScanDirection DIRECTIONS[] = {ScanDirection::forward, ScanDirection::backward,
                                        ScanDirection::forward_backward};

Setup setup_of(const Shape& sh, ScanDirection dir, bool exclusive, Accum acc, Data data) {
  Setup s;
  s.spec.direction = dir;
  s.spec.accum = acc;
  s.spec.exclusive = exclusive;
  s.spec.rows = sh.rows;
  s.spec.len = sh.len;
  s.spec.in_pitch = sh.len + sh.in_pad;
  s.spec.out_pitch = sh.in_place ? s.spec.in_pitch : sh.len + sh.out_pad;
  s.spec.in_place = sh.in_place && sh.rows > 0 && sh.len > 0;
  s.in_offset = sh.in_off;
  s.out_offset = sh.in_place ? sh.in_off : sh.out_off;
  s.data = data;
  return s;
}

bool wanted(const RunOptions& o, Accum a) {
  if (o.type && *o.type != Dtype::f32) return false;
  if (o.op && *o.op != Op::sum) return false;
  return !o.accum || *o.accum == a;
}

class ScanPattern final : public Pattern {
 public:
  std::string_view name() const override { return "batched_scan"; }
  std::string_view size_meaning() const override { return "samples per row (rows x N)"; }

  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out;
    for (const auto& v : batched_scan_impl::all_variants()) out.push_back(v.info);
    return out;
  }

  // Every shape with every accumulator; direction and exclusiveness rotate
  // with the shape so that each accumulator meets all six combinations.
  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<Shape> shapes;
    if (o.size) shapes = {{3, *o.size}, {2, *o.size, 1, 3, 1, 2}, {2, *o.size, 1, 1, 3, 3, true}};
    else if (o.quick) shapes.assign(std::begin(QUICK_SHAPES), std::end(QUICK_SHAPES));
    else shapes.assign(std::begin(VERIFY_SHAPES), std::end(VERIFY_SHAPES));
    std::vector<ProblemFactory> out;
    for (std::size_t i = 0; i < shapes.size(); ++i)
      for (std::size_t a = 0; a < std::size(ACCUMS); ++a) {
        if (!wanted(o, ACCUMS[a])) continue;
        const std::size_t k = i + a;
        const Data data = i % 11 == 5 ? Data::constant : Data::uniform;
        out.push_back(factory(setup_of(shapes[i], DIRECTIONS[k % 3], (k / 3) % 2 == 1, ACCUMS[a], data),
                              ErrorModel::random, o.seed + i, o.gpu));
      }
    if (o.large && o.gpu && !o.size && wanted(o, Accum::native)) {
      // Past 2^31 samples: 64-bit row offsets on the long-row and fused paths.
      for (const Shape& sh : {Shape{65537, 32769}, Shape{214749, 10000}})
        out.push_back(factory(setup_of(sh, ScanDirection::forward_backward, false, Accum::native, Data::uniform),
                              ErrorModel::random, o.seed, o.gpu));
    }
    return out;
  }

  // Headline: the seismic user's 10,000 x 10,000 forward-then-backward, float
  // and double-float. The full ladder adds rows of 32, 10^6 and 10^7 samples
  // and the precision report: every accumulator at LEN 10^4, 10^5, 10^6;
  // and a float forward scan of rows of 10^7. --size N sets LEN (rows fill
  // the default volume; every accumulator forward-then-backward, and float
  // forward).
  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const std::size_t volume = o.gpu ? GPU_BENCH_ELEMS : CPU_BENCH_ELEMS;
    const auto shape = [&](std::size_t len) { return Shape{std::max<std::size_t>(1, volume / len), len}; };
    const auto fb = [&](std::size_t len, Accum a) {
      return setup_of(shape(len), ScanDirection::forward_backward, false, a, Data::seismic);
    };
    // A forward scan alone, float: rows past the GPU's shared memory take
    // another path for one direction than for forward_backward.
    const auto fwd = [&](std::size_t len) {
      return setup_of(shape(len), ScanDirection::forward, false, Accum::native, Data::seismic);
    };
    std::vector<Setup> setups;
    if (o.size) {
      for (Accum a : ACCUMS) setups.push_back(fb(*o.size, a));
      setups.push_back(fwd(*o.size));
    } else if (o.headline) {
      setups = {fb(10'000, Accum::native), fb(10'000, Accum::dfloat)};
    } else {
      for (std::size_t len : {std::size_t(10'000), std::size_t(100'000), std::size_t(1'000'000)})
        for (Accum a : ACCUMS) setups.push_back(fb(len, a));
      setups.push_back(fb(32, Accum::native));
      setups.push_back(fb(10'000'000, Accum::native));
      setups.push_back(fwd(10'000'000));
    }
    std::vector<ProblemFactory> out;
    for (const Setup& s : setups)
      if (wanted(o, s.spec.accum)) out.push_back(factory(s, ErrorModel::rigorous, o.seed, o.gpu));
    return out;
  }

 private:
  static ProblemFactory factory(const Setup& s, ErrorModel m, std::uint64_t seed, bool gpu) {
    // Per sample, host: the float input, the double reference, a CPU rung's
    // output and the checked copy; device: input and output.
    const double samples = double(s.spec.rows) * double(std::max(s.spec.in_pitch, s.spec.len));
    return {label_of(s), [=] { return std::make_unique<ScanProblem>(s, m, seed, gpu); },
            {.host_bytes = samples * (4 + 8 + 4 + 4), .device_bytes = gpu ? samples * 8 : 0,
             .host_flops = 2 * samples}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_batched_scan_pattern() { return std::make_unique<ScanPattern>(); }

}  // namespace tessera::harness
