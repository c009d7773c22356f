// The moving_average pattern as the harness sees it: seeded samples and
// weights (a box of 1/w, the seed's 1/4 1/2 1/4, or a general bell-shaped
// window with noise), the reference window sums in double, the check of
// every output and the precision report, the cost model.
//
// Check: output i is within
//   eps_out * |ref_i| + eps_acc * (16 + 4 sqrt(terms) + repeats) * M_i
// of the double reference (repeats: the samples a clamped edge repeats,
// whose roundings add up in step), where M_i and `terms` follow the variant's
// Precision (contract.hpp): the window's absolute sum A_i = sum |w_j x_j| and
// w terms for direct sums; the absolute sum of the samples the prefix spans
// (times |c|) and that many terms for running sums, so a correct running sum
// passes with the error its method implies and the report shows how big
// that error is. Reported: max_rel_err and rms_rel_err are |got - ref| / A_i
// (error relative to the window's absolute sum: outputs near zero have no
// useful relative error), max_ulp_err / rms_ulp_err the distance from the
// correctly rounded float. Written !(err <= tol): NaN (the poison) fails.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "families/moving_average/contract.hpp"
#include "families/moving_average/cpu_rungs.hpp"
#include "families/moving_average/policy.hpp"
#include "families/register_all.hpp"
#include "harness/generate.hpp"
#include "tessera/moving_average.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using moving_average_impl::MovingAverageSpec;
using moving_average_impl::MovingAverageVariant;
using moving_average_impl::Precision;

// The weights of a problem.
enum class Weights {
  box,      // every weight 1/w (uniform: the running sums apply)
  seed,     // w = 3: 1/4, 1/2, 1/4 (seed 004's kernel)
  general,  // a bell over the window plus seeded noise, never all equal
};

struct Case {
  Dtype dtype;
  std::size_t n;
  std::size_t w;
  Edge edge;
  Weights weights;
};

constexpr std::size_t GPU_BENCH_N = std::size_t(1) << 28;  // 1 GiB of float: 20x an H100's L2
constexpr std::size_t CPU_BENCH_N = std::size_t(1) << 22;
// The CPU rungs' multiply-adds per run (cpu_madds): the serial rung does the
// definition's n * w (one edge test per product: ~1 ns each, so 2^28 is
// ~0.3 s); the OpenMP rung's vectorised direct sums n * w, its sliding box
// ~4 per output. Past 2^33 an OpenMP run takes ~0.3 s on 16 cores and the
// bench runs it up to 6 times (check + 5 timed): the rung is left out, as
// the serial one is past 2^28, so `tessera bench moving_average` stays
// within ~40 s.
constexpr double SERIAL_MADDS = double(std::size_t(1) << 28);
constexpr double OPENMP_MADDS = double(std::size_t(1) << 33);

// Bench: the targets (box w = 3 and w = 1001), a general w = 31, the seed's
// 3-point weights, and boxes around the crossovers of policy.hpp: 15 and 47
// around the direct form against the running sum (measured: 23), 47, 95 and
// 127 around where step 7's max error falls below the direct sum's (measured
// above it at 47, below at 95 and 127; its CPU model puts the crossing near 80).
constexpr std::size_t CROSSOVER_WS[] = {15, 47, 95, 127};

// Verify: single samples, warp / tile boundaries +/- 1 (the tiles are 256,
// 254, 1792 and 4096 outputs), primes, a multi-tile size.
constexpr std::size_t VERIFY_NS[] = {1, 2, 3, 5, 31, 253, 254, 255, 257, 1791, 1793, 4095, 4097, 8193, 65537, 1000003};
constexpr std::size_t VERIFY_WS[] = {1, 3, 5, 31, 1001, 4097};
constexpr std::size_t QUICK_NS[] = {1, 3, 129, 257, 4097, 65537};
constexpr std::size_t QUICK_WS[] = {1, 3, 31, 1001};
constexpr std::size_t LARGE_N = (std::size_t(1) << 31) + 17;

std::string_view weights_name(Weights k) {
  switch (k) {
    case Weights::box: return "box";
    case Weights::seed: return "1/4 1/2 1/4";
    case Weights::general: return "weighted";
  }
  return "";
}

std::string label_of(const Case& c) {
  return fmt::format("{} n={} w={} {} {}", to_string(c.dtype), c.n, c.w, weights_name(c.weights),
                     c.edge == Edge::zero ? "zero" : "clamp");
}

template <class T>
std::vector<T> make_weights(const Case& c, std::uint64_t seed) {
  std::vector<T> w(c.w);
  if (c.weights == Weights::box) {
    std::fill(w.begin(), w.end(), static_cast<T>(1.0 / double(c.w)));
  } else if (c.weights == Weights::seed) {
    w = {T(0.25), T(0.5), T(0.25)};
  } else {
    const double half = double(c.w / 2) + 1;
    for (std::size_t j = 0; j < c.w; ++j) {
      const double u = double(mix64(seed ^ 0x5eedull, j) >> 11) * 0x1.0p-53;  // [0, 1)
      const double x = (double(j) - double(c.w / 2)) / half;
      w[j] = static_cast<T>((std::exp(-2.0 * x * x) + 0.25 * (u - 0.5)) / double(c.w));
    }
    if (c.w > 1 && w[0] == w[1]) w[0] = w[0] * T(1.5);  // never all equal
  }
  return w;
}

// An n-element host array left uninitialised: std::vector would zero it in
// one thread (seconds for the 2^28-sample bench's 6 GiB of arrays); the
// parallel loops that fill it touch its pages first, spreading the page
// faults over the threads.
template <class T>
std::unique_ptr<T[]> uninitialised(std::size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

// 0xFF bytes (a NaN in float and double, which fails the check), in parallel.
void poison(unsigned char* p, std::size_t bytes) {
  constexpr std::size_t BLOCK = std::size_t(1) << 20;
  const auto blocks = static_cast<std::int64_t>((bytes + BLOCK - 1) / BLOCK);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t at = static_cast<std::size_t>(b) * BLOCK;
    std::memset(p + at, 0xFF, std::min(BLOCK, bytes - at));
  }
}

// prefix[i] = |x[0]| + ... + |x[i - 1]| for i in [0, n], in double: block
// sums in parallel, their scan, then each block's own scan from its start.
// The blocks are fixed (not per thread), so any thread count gives the same
// sums; a difference prefix[b] - prefix[a] carries only the roundings of the
// adds between a and b (~(b - a) ulps of the prefix, ~1e-8 absolute at 2^28
// samples), which is all a tolerance's magnitude needs.
template <class T>
void absolute_prefix(const T* x, std::size_t n, double* prefix) {
  constexpr std::size_t BLOCK = std::size_t(1) << 16;
  const auto blocks = static_cast<std::int64_t>((n + BLOCK - 1) / BLOCK);
  std::vector<double> start(static_cast<std::size_t>(blocks) + 1, 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t lo = static_cast<std::size_t>(b) * BLOCK, hi = std::min(lo + BLOCK, n);
    double sum = 0;
    for (std::size_t k = lo; k < hi; ++k) sum += std::fabs(double(x[k]));
    start[static_cast<std::size_t>(b) + 1] = sum;
  }
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  prefix[0] = 0;
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t lo = static_cast<std::size_t>(b) * BLOCK, hi = std::min(lo + BLOCK, n);
    double sum = start[static_cast<std::size_t>(b)];
    for (std::size_t k = lo; k < hi; ++k) prefix[k + 1] = sum += std::fabs(double(x[k]));
  }
}

class MovingAverageProblem;

class MovingAverageInstance final : public Instance {
 public:
  MovingAverageInstance(const MovingAverageProblem& p, const MovingAverageVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  const MovingAverageProblem& problem_;
  const MovingAverageVariant& variant_;
  std::unique_ptr<unsigned char[]> host_out_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_out_, dev_ws_;
#endif
};

class MovingAverageProblem final : public Problem {
 public:
  MovingAverageProblem(const Case& c, std::uint64_t seed, bool gpu) : case_(c), gpu_(gpu) {
    const std::size_t elem = size_of(c.dtype);
    input_ = uninitialised<unsigned char>(c.n * elem + 16);
    std::memset(input_.get() + c.n * elem, 0, 16);
    fill_random(input_.get(), c.dtype, c.n, seed, Distribution::uniform);
    moving_average_impl::cpu::with_type(c.dtype, [&]<class T>() {
      const std::vector<T> w = make_weights<T>(c, seed);
      weights_.resize(w.size() * sizeof(T));
      std::memcpy(weights_.data(), w.data(), weights_.size());
      spec_ = {c.dtype, c.n, c.w, c.edge, std::all_of(w.begin(), w.end(), [&](T x) { return x == w[0]; })};
      const T* x = reinterpret_cast<const T*>(input_.get());
      // The reference: every output's window sum in double, O(n) for wide
      // boxes (a compensated running sum re-anchored every 4096 outputs) and
      // vectorised direct sums otherwise (01_openmp.cpp), ~2 double ulps of
      // the window either way: far below any variant's error, so the error
      // columns are the variant's own.
      ref_ = uninitialised<double>(c.n);
      moving_average_impl::cpu::window_sums_f64(x, spec_, w.data(), false, 0, c.n, ref_.get());
      // The magnitudes: a box's window absolute sum (and the running sums'
      // spans) from one prefix of |x|; general weights need their own sums.
      if (spec_.uniform) {
        prefix_abs_ = uninitialised<double>(c.n + 1);
        absolute_prefix(x, c.n, prefix_abs_.get());
      } else {
        abs_ = uninitialised<double>(c.n);
        moving_average_impl::cpu::window_sums_f64(x, spec_, w.data(), true, 0, c.n, abs_.get());
      }
      first_abs_ = std::fabs(double(x[0]));
      last_abs_ = std::fabs(double(x[c.n - 1]));
      c_abs_ = std::fabs(double(w[0]));
    });
    desc_ = {"moving_average", label_of(c), std::string(to_string(c.dtype)), std::string(weights_name(c.weights)),
             "", std::string(to_string(Distribution::uniform)), {c.n, c.w}};
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(c.n * elem, "moving_average input");
      dev_input_.upload(input_.get(), c.n * elem);
      dev_weights_ = DeviceBytes(weights_.size(), "moving_average weights");
      dev_weights_.upload(weights_.data(), weights_.size());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    // Each sample read once, each output written once, the weights read once;
    // the definition's w multiply-adds per output (a running sum does fewer).
    const double elem = double(size_of(case_.dtype));
    return {2.0 * double(case_.n) * elem + double(case_.w) * elem, 2.0 * double(case_.n) * double(case_.w),
            Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const MovingAverageVariant* mv = moving_average_impl::variants_ladder().find(v.name);
    if (mv == nullptr || !(v.backend == Backend::cpu || gpu_) || !mv->supports(spec_)) return false;
    if (v.backend == Backend::cpu) return cpu_madds(v.step) <= (v.step == 0 ? SERIAL_MADDS : OPENMP_MADDS);
    return true;
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    if (v.backend == Backend::cpu && !(cpu_madds(v.step) <= (v.step == 0 ? SERIAL_MADDS : OPENMP_MADDS)))
      return fmt::format("{}: {:.2g} multiply-adds a run, past the bench's limit of 2^{} for it", v.name,
                         cpu_madds(v.step), v.step == 0 ? 28 : 33);
    return std::string(v.name) + " does not support " + desc_.label;
  }
  std::string api_pick(bool gpu) const override {
    return std::string(moving_average_impl::policy::pick(gpu, spec_.dtype == Dtype::f32, spec_.w, spec_.uniform));
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<MovingAverageInstance>(
        *this, moving_average_impl::variants_ladder().at(v.name, "moving_average"));
  }

  // A CPU rung's multiply-adds per run (step 0: the serial definition).
  double cpu_madds(int step) const {
    const bool slides = step > 0 && spec_.uniform && case_.w >= moving_average_impl::cpu::SLIDE_MIN_W;
    return double(case_.n) * (slides ? 4.0 : double(case_.w));
  }

  const MovingAverageSpec& spec() const { return spec_; }
  const void* host_input() const { return input_.get(); }
  const void* host_weights() const { return weights_.data(); }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_input_.data(); }
  const void* device_weights() const { return dev_weights_.data(); }
#endif
  std::size_t out_bytes() const { return case_.n * size_of(case_.dtype); }

  // Where a GPU variant's output is downloaded to be checked: one buffer
  // for all the problem's rows (allocated and paged in once, not per row).
  unsigned char* download_buffer() const {
    if (!download_) download_ = uninitialised<unsigned char>(out_bytes());
    return download_.get();
  }

  CheckResult compare(const unsigned char* out, const MovingAverageVariant& v) const {
    CheckResult r;
    r.ok = true;
    const bool f32 = case_.dtype == Dtype::f32;
    const double eps_out = f32 ? 0x1.0p-24 : 0x1.0p-53;
    const double eps_acc = v.accum == Accum::f64 || !f32 ? 0x1.0p-53 : 0x1.0p-24;
    double max_rel = 0, sum_rel2 = 0, max_ulp = 0, sum_ulp2 = 0;
    std::size_t first_bad = case_.n;
    const auto h = static_cast<std::int64_t>(case_.w / 2);
    const auto n = static_cast<std::int64_t>(case_.n);
    // In parallel (2^28 outputs a check); NaN errors count as infinite.
#pragma omp parallel for schedule(static) reduction(max : max_rel, max_ulp) reduction(+ : sum_rel2, sum_ulp2) \
    reduction(min : first_bad)
    for (std::int64_t gi = 0; gi < n; ++gi) {
      const auto i = static_cast<std::size_t>(gi);
      const double got = value_at(out, i);
      if (f32) {
        const double u = ulps_from_rounded(static_cast<float>(got), ref_[i]);
        max_ulp = std::max(max_ulp, std::isnan(u) ? std::numeric_limits<double>::infinity() : u);
        sum_ulp2 += u * u;
      }
      const double err = std::fabs(got - ref_[i]);
      const double window_abs = window_magnitude(gi);
      double magnitude = window_abs, terms = double(case_.w);
      if (v.precision == Precision::tile_prefix) {
        terms = double(moving_average_impl::TILE_PREFIX_SPAN + case_.w);
        magnitude = c_abs_ * abs_sum(gi + h + 1 - static_cast<std::int64_t>(terms), gi + h + 1);
      } else if (v.precision == Precision::global_prefix) {
        terms = double(i + case_.w);
        magnitude = c_abs_ * abs_sum(std::min<std::int64_t>(0, gi - h), gi + h + 1);
      } else if (v.precision == Precision::segment_prefix) {
        const auto before = static_cast<std::int64_t>(moving_average_impl::SEGMENT_PREFIX_SPAN);
        terms = double(moving_average_impl::SEGMENT_PREFIX_SPAN + case_.w);
        magnitude = c_abs_ * abs_sum(gi - h - before, gi + h + 1);
      }
      // Clamped edges repeat one sample: their roundings add up in step
      // (linearly), the others' like a random walk.
      const double repeats = case_.edge == Edge::clamp
                                 ? double(std::max<std::int64_t>(0, h - gi) + std::max<std::int64_t>(0, gi + h + 1 - n))
                                 : 0.0;
      const double tol =
          eps_out * std::fabs(ref_[i]) + eps_acc * (16.0 + 4.0 * std::sqrt(terms) + repeats) * magnitude;
      const double rel = window_abs > 0 ? err / window_abs : err;
      max_rel = std::max(max_rel, std::isnan(rel) ? std::numeric_limits<double>::infinity() : rel);
      sum_rel2 += rel * rel;
      if (!(err <= tol)) first_bad = std::min(first_bad, i);
    }
    const double count = double(std::max<std::size_t>(case_.n, 1));
    r.max_rel_err = max_rel;
    r.rms_rel_err = std::sqrt(sum_rel2 / count);
    if (f32) {
      r.max_ulp_err = max_ulp;
      r.rms_ulp_err = std::sqrt(sum_ulp2 / count);
    }
    if (first_bad != case_.n) {
      r.ok = false;
      r.detail = fmt::format("out[{}] = {} but the reference is {} (window absolute sum {:.6g})", first_bad,
                             value_at(out, first_bad), ref_[first_bad],
                             window_magnitude(static_cast<std::int64_t>(first_bad)));
    }
    return r;
  }

 private:
  double value_at(const unsigned char* out, std::size_t i) const {
    if (case_.dtype == Dtype::f32) {
      float g;
      std::memcpy(&g, out + i * 4, 4);
      return g;
    }
    double d;
    std::memcpy(&d, out + i * 8, 8);
    return d;
  }

  // Output i's window absolute sum, sum_j |w_j x_{i+j-h}|.
  double window_magnitude(std::int64_t i) const {
    if (!spec_.uniform) return abs_[static_cast<std::size_t>(i)];
    const auto h = static_cast<std::int64_t>(case_.w / 2);
    return c_abs_ * abs_sum(i - h, i + h + 1);
  }

  // The absolute sum of samples [lo, hi) under the edge rule (zero: nothing
  // outside [0, n); clamp: the end samples repeated).
  double abs_sum(std::int64_t lo, std::int64_t hi) const {
    const auto n = static_cast<std::int64_t>(case_.n);
    const std::int64_t a = std::clamp<std::int64_t>(lo, 0, n), b = std::clamp<std::int64_t>(hi, 0, n);
    double s = b > a ? prefix_abs_[b] - prefix_abs_[a] : 0.0;
    if (case_.edge == Edge::clamp) {
      if (lo < 0) s += double(std::min<std::int64_t>(hi, 0) - lo) * first_abs_;
      if (hi > n) s += double(hi - std::max<std::int64_t>(lo, n)) * last_abs_;
    }
    return s;
  }

  Case case_;
  bool gpu_;
  MovingAverageSpec spec_{};
  ProblemDesc desc_;
  std::unique_ptr<unsigned char[]> input_;
  std::vector<unsigned char> weights_;
  // The reference; general weights' window absolute sums (abs_) or, for
  // boxes, the prefix of |x| their magnitudes come from.
  std::unique_ptr<double[]> ref_, abs_, prefix_abs_;
  mutable std::unique_ptr<unsigned char[]> download_;
  double first_abs_ = 0, last_abs_ = 0, c_abs_ = 0;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_input_, dev_weights_;
#endif
};

MovingAverageInstance::MovingAverageInstance(const MovingAverageProblem& p, const MovingAverageVariant& v)
    : problem_(p), variant_(v) {
  if (v.info.backend == Backend::cpu) {
    host_out_ = uninitialised<unsigned char>(p.out_bytes() + 16);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_ = DeviceBytes(p.out_bytes(), "moving_average output");
  dev_ws_ = DeviceBytes(v.workspace_bytes(p.spec()), "moving_average workspace");
#endif
}

void MovingAverageInstance::run(stream_t stream) {
  const MovingAverageSpec& spec = problem_.spec();
  if (variant_.info.backend == Backend::cpu) {
    variant_.run({spec, problem_.host_input(), host_out_.get(), problem_.host_weights(), nullptr, nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_input(), dev_out_.data(), problem_.device_weights(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult MovingAverageInstance::check(stream_t stream) {
  // Poison: 0xFF bytes are a NaN in float and double, which fails the check.
  if (variant_.info.backend == Backend::cpu) {
    poison(host_out_.get(), problem_.out_bytes() + 16);
    run(stream);
    return problem_.compare(host_out_.get(), variant_);
  }
  unsigned char* got = problem_.download_buffer();
  poison(got, problem_.out_bytes());  // a download that copied nothing fails
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(0xFF, stream);
  run(stream);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  dev_out_.download(got, problem_.out_bytes());
#endif
  return problem_.compare(got, variant_);
}

// Types: --type float or double; otherwise float and double for verify,
// float for bench (the targets' type).
std::vector<Dtype> types_of(const RunOptions& o, bool verify) {
  if (o.op || o.accum) return {};
  if (o.type) return *o.type == Dtype::f32 || *o.type == Dtype::f64 ? std::vector<Dtype>{*o.type} : std::vector<Dtype>{};
  if (verify) return {Dtype::f32, Dtype::f64};
  return {Dtype::f32};
}

class MovingAveragePattern final : public Pattern {
 public:
  std::string_view name() const override { return "moving_average"; }
  std::string_view size_meaning() const override { return "samples (n)"; }
  std::vector<VariantInfo> variants() const override { return moving_average_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<std::size_t> ns, ws;
    if (o.size) ns = {*o.size};
    else if (o.quick) ns.assign(std::begin(QUICK_NS), std::end(QUICK_NS));
    else ns.assign(std::begin(VERIFY_NS), std::end(VERIFY_NS));
    if (o.quick) ws.assign(std::begin(QUICK_WS), std::end(QUICK_WS));
    else ws.assign(std::begin(VERIFY_WS), std::end(VERIFY_WS));
    std::vector<ProblemFactory> out;
    std::size_t k = 0;
    for (Dtype t : types_of(o, true)) {
      for (std::size_t n : ns) {
        // Every listed w that fits, and the widest odd window (w = n or n - 1).
        std::vector<std::size_t> fit;
        for (std::size_t w : ws)
          if (w <= n) fit.push_back(w);
        const std::size_t widest = n % 2 == 1 ? n : n - 1;
        if (widest <= 8191 && std::find(fit.begin(), fit.end(), widest) == fit.end()) fit.push_back(widest);
        for (std::size_t w : fit) {
          const Edge edge = k % 2 == 0 ? Edge::zero : Edge::clamp;
          out.push_back(factory({t, n, w, edge, Weights::box}, o.seed + k, o.gpu));
          if (w > 1) out.push_back(factory({t, n, w, edge, w == 3 && k % 4 == 1 ? Weights::seed : Weights::general},
                                           o.seed + k, o.gpu));
          ++k;
        }
      }
      if (o.large && t == Dtype::f32 && !o.size)
        for (std::size_t w : {std::size_t(3), std::size_t(1001)})
          out.push_back(factory({t, LARGE_N, w, Edge::zero, Weights::box}, o.seed, o.gpu));
    }
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const std::size_t n = o.size.value_or(o.gpu ? GPU_BENCH_N : CPU_BENCH_N);
    std::vector<ProblemFactory> out;
    auto add = [&](Dtype t, std::size_t w, Weights k) {
      if (w <= n) out.push_back(factory({t, n, w, Edge::zero, k}, o.seed, o.gpu));
    };
    const auto types = types_of(o, false);
    if (o.headline) {  // the two targets
      if (types.empty()) return out;
      add(types[0], 3, Weights::box);
      add(types[0], 1001, Weights::box);
      return out;
    }
    for (Dtype t : types) {
      add(t, 3, Weights::box);
      add(t, 1001, Weights::box);
      add(t, 31, Weights::general);
      add(t, 3, Weights::seed);
      for (std::size_t w : CROSSOVER_WS) add(t, w, Weights::box);
    }
    return out;
  }

 private:
  static ProblemFactory factory(const Case& c, std::uint64_t seed, bool gpu) {
    // Host: input, the reference and the magnitudes' array (2 doubles per
    // sample), a CPU rung's output and the downloaded copy. Device: input,
    // output, the global running sum's prefix and the scan's scratch. Host
    // arithmetic: the reference's sums (and general weights' absolute ones),
    // ~8 flops per output where a box slides.
    const double n = double(c.n), elem = double(size_of(c.dtype));
    const double flops =
        c.weights == Weights::box && c.w >= moving_average_impl::cpu::SLIDE_MIN_W ? 8.0 * n : 4.0 * n * double(c.w);
    return {label_of(c), [=] { return std::make_unique<MovingAverageProblem>(c, seed, gpu); },
            {.host_bytes = n * (3 * elem + 16), .device_bytes = gpu ? n * (3 * elem) + 1e6 : 0, .host_flops = flops}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_moving_average_pattern() { return std::make_unique<MovingAveragePattern>(); }

}  // namespace tessera::harness
