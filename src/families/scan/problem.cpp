// The scan pattern as the harness sees it: seeded inputs, the reference
// answer (the step-0 CPU rung), element-by-element checks and the cost model.
//
// Checks: integer scans and min/max must match exactly (NaN equals NaN).
// Float sums: every output i must satisfy
//   |got_i - ref_i| <= (3 eps_out + eps_acc * (16 + 4 sqrt(m_i))) * A_i
// with m_i the number of terms in output i (i + 1 inclusive, i exclusive),
// A_i the sum of their magnitudes, eps_out / eps_acc as in the reduction
// (harness/check.hpp). Three output roundings: the reference is itself
// rounded to the output type, the output is, and the multi-level rungs round
// each section's local scan to the output type before adding the section
// prefix. Written !(err <= tol): NaN fails. The reported max_rel_err of a
// float sum is max_i |got_i - ref_i| / A_i.
#include <fmt/format.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "tessera/blocks/scan_ops.hpp"
#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "families/register_all.hpp"
#include "families/scan/contract.hpp"
#include "tessera/scan.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using scan_impl::ScanSpec;
using scan_impl::ScanVariant;

// 2^28 elements (1 GiB of float in, 1 GiB out): far past the 50 MB L2 of an
// H100. The CPU-only default stays fast on 2 cores.
constexpr std::size_t GPU_BENCH_N = std::size_t(1) << 28;
constexpr std::size_t CPU_BENCH_N = std::size_t(1) << 24;

// Edge sizes: empty, one, warp boundaries, block and section boundaries +-1
// of every rung (256..4096 elements, look-back tiles of 2048..8192), primes,
// a multi-level size.
constexpr std::size_t VERIFY_SIZES[] = {0,    1,    2,    31,   32,    33,    255,   256,    257,     511,
                                        512,  513,  1023, 1024, 1025,  2047,  2049,  4095,   4096,    4097,
                                        8191, 8193, 65537, 99991, 1000003, (std::size_t(1) << 24) + 7};
// Exclusive scans share the code paths: a subset.
constexpr std::size_t EXCLUSIVE_SIZES[] = {0, 1, 33, 1025, 4097, 65537, 1000003};
constexpr std::size_t QUICK_SIZES[] = {1, 33, 1025, 4097, 65537};
constexpr std::size_t LARGE_N = (std::size_t(1) << 31) + 17;  // past 2^31: 64-bit indexing

constexpr Dtype SCAN_DTYPES[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32};

std::string spec_label(const ScanSpec& s) {
  const bool show_accum = s.dtype == Dtype::f32 && s.op == Op::sum;
  return fmt::format("{}{} {}{} n={}", to_string(s.dtype), s.exclusive ? " exclusive" : "", to_string(s.op),
                     show_accum ? fmt::format(" ({})", to_string(s.accum)) : std::string(), s.n);
}

// Every (type, op, accumulator) the pattern supports, inclusive.
std::vector<ScanSpec> all_specs(const RunOptions& o) {
  std::vector<ScanSpec> specs;
  for_each_type_op_accum(o, SCAN_DTYPES, [&](Dtype t, Op op, Accum a) { specs.push_back({t, op, a, false, 0}); });
  return specs;
}

class ScanProblem;

class ScanInstance final : public BoundInstance<ScanProblem, ScanVariant> {
 public:
  ScanInstance(const ScanProblem& p, const ScanVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<unsigned char> host_ws_, host_out_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_, dev_out_;
#endif
};

class ScanProblem final : public Problem {
 public:
  ScanProblem(const ScanSpec& spec, Distribution dist, std::uint64_t seed, bool gpu)
      : spec_(spec), gpu_(gpu), bytes_(spec.n * size_of(spec.dtype)), input_(bytes_ + 1), expected_(bytes_ + 1) {
    desc_ = {"scan", spec_label(spec), std::string(to_string(spec.dtype)), std::string(to_string(spec.op)),
             spec.dtype == Dtype::f32 && spec.op == Op::sum ? std::string(to_string(spec.accum)) : "",
             std::string(to_string(dist)), {spec.n}};
    fill_random(input_.data(), spec.dtype, spec.n, seed, dist);
    // The reference answer: the step-0 rung, serial and compensated.
    scan_impl::variants_ladder().at("cpu_reference", "scan").run({spec_, input_.data(), expected_.data(), nullptr, nullptr});
    poison_ = choose_poison();
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(input_.size(), "scan input");
      dev_input_.upload(input_.data(), input_.size());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override { return {2.0 * double(bytes_), double(spec_.n), Bound::memory}; }
  bool supports(const VariantInfo& v) const override {
    const ScanVariant* sv = scan_impl::variants_ladder().find(v.name);
    return sv != nullptr && (v.backend == Backend::cpu || gpu_) && sv->supports(spec_);
  }
  std::string api_pick(bool gpu) const override { return gpu ? scan_default_variant(spec_.dtype, spec_.op, spec_.accum, spec_.exclusive, spec_.n) : "cpu_openmp"; }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<ScanInstance>(*this, scan_impl::variants_ladder().at(v.name, "scan"));
  }

  const ScanSpec& spec() const { return spec_; }
  std::size_t bytes() const { return bytes_; }
  const void* host_input() const { return input_.data(); }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_input_.data(); }
#endif
  // A byte that, repeated, equals no expected element: an output the variant
  // never wrote cannot pass.
  int poison_byte() const { return poison_; }

  CheckResult compare(const unsigned char* got) const {
    switch (spec_.dtype) {
      case Dtype::f32: return compare_as<float>(got);
      case Dtype::f64: return compare_as<double>(got);
      case Dtype::i32: return compare_as<std::int32_t>(got);
      case Dtype::i64: return compare_as<std::int64_t>(got);
      default: return compare_as<std::uint32_t>(got);
    }
  }

 private:
  int choose_poison() const {
    const std::size_t size = size_of(spec_.dtype);
    for (int b : {0xFF, 0xA5, 0x5A, 0x3C}) {
      unsigned char pattern[8];
      std::memset(pattern, b, sizeof pattern);
      bool clash = false;
      const auto n = static_cast<std::int64_t>(spec_.n);
#pragma omp parallel for reduction(|| : clash)
      for (std::int64_t i = 0; i < n; ++i)
        clash = clash || std::memcmp(expected_.data() + static_cast<std::size_t>(i) * size, pattern, size) == 0;
      if (!clash) return b;
    }
    return 0xFF;  // four patterns all taken: practically impossible
  }

  template <class T>
  CheckResult compare_as(const unsigned char* got_bytes) const {
    const T* got = reinterpret_cast<const T*>(got_bytes);
    const T* ref = reinterpret_cast<const T*>(expected_.data());
    const T* x = reinterpret_cast<const T*>(input_.data());
    const std::size_t n = spec_.n;
    const bool tolerant = std::is_floating_point_v<T> && spec_.op == Op::sum;
    // Chunks, each with the magnitude sum of everything before it.
    const auto chunks = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
    const std::size_t len = (n + chunks - 1) / std::max<std::size_t>(chunks, 1);
    std::vector<double> before(chunks + 1, 0.0);
    if (tolerant) {
#pragma omp parallel for schedule(static, 1)
      for (std::int64_t c = 0; c < static_cast<std::int64_t>(chunks); ++c) {
        double a = 0;
        for (std::size_t i = std::size_t(c) * len; i < std::min(n, std::size_t(c + 1) * len); ++i) a += std::fabs(double(x[i]));
        before[std::size_t(c) + 1] = a;
      }
      for (std::size_t c = 1; c <= chunks; ++c) before[c] += before[c - 1];
    }
    std::vector<std::size_t> first_bad(chunks, n), bad(chunks, 0);
    std::vector<double> worst(chunks, 0.0), tol_at(chunks, 0.0);
#pragma omp parallel for schedule(static, 1)
    for (std::int64_t cc = 0; cc < static_cast<std::int64_t>(chunks); ++cc) {
      const auto c = static_cast<std::size_t>(cc);
      double a = before[c];
      for (std::size_t i = c * len; i < std::min(n, (c + 1) * len); ++i) {
        bool ok;
        if (tolerant) {
          const double a_before = a;
          a += std::fabs(double(x[i]));
          const double mass = spec_.exclusive ? a_before : a;
          const std::size_t terms = spec_.exclusive ? i : i + 1;
          const double tol = sum_tolerance(spec_.dtype, spec_.accum, terms, mass) +
                             2.0 * (spec_.dtype == Dtype::f32 ? 0x1.0p-24 : 0x1.0p-53) * mass;
          const double err = std::fabs(double(got[i]) - double(ref[i]));
          ok = err <= tol;  // false for NaN
          if (ok && mass > 0) worst[c] = std::max(worst[c], err / mass);
          if (!ok && first_bad[c] == n) tol_at[c] = tol;
        } else if constexpr (std::is_floating_point_v<T>) {
          ok = got[i] == ref[i] || (std::isnan(got[i]) && std::isnan(ref[i]));
        } else {
          ok = got[i] == ref[i];
        }
        if (!ok) {
          if (first_bad[c] == n) first_bad[c] = i;
          ++bad[c];
        }
      }
    }
    CheckResult r;
    std::size_t total_bad = 0, first = n, at = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      total_bad += bad[c];
      r.max_rel_err = std::max(r.max_rel_err, worst[c]);
      if (first_bad[c] < first) {
        first = first_bad[c];
        at = c;
      }
    }
    r.ok = total_bad == 0;
    if (!r.ok) {
      const auto show = [](T v) {
        if constexpr (std::is_floating_point_v<T>) return fmt::format("{:.9g}", double(v));
        else return fmt::format("{}", v);
      };
      r.detail = fmt::format("{} of {} outputs wrong; first at index {}: got {}, expected {}{}", total_bad, n, first,
                             show(got[first]), show(ref[first]),
                             tolerant ? fmt::format(" (tolerance {:.3g})", tol_at[at]) : std::string());
    }
    return r;
  }

  ScanSpec spec_;
  bool gpu_;
  std::size_t bytes_;
  ProblemDesc desc_;
  std::vector<unsigned char> input_;     // +1 byte: a valid pointer even when n == 0
  std::vector<unsigned char> expected_;  // the reference outputs
  int poison_ = 0xFF;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_input_;
#endif
};

ScanInstance::ScanInstance(const ScanProblem& p, const ScanVariant& v) : BoundInstance(p, v) {
  const std::size_t ws = v.workspace_bytes(p.spec());
  if (on_host()) {
    host_ws_.resize(ws);
    host_out_.resize(p.bytes() + 1);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_ws_ = DeviceBytes(ws, "scan workspace");
  dev_out_ = DeviceBytes(p.bytes() + 1, "scan output");
#endif
}

void ScanInstance::run(stream_t stream) {
  const auto& spec = problem_.spec();
  if (on_host()) {
    variant_.run({spec, problem_.host_input(), host_out_.data(), host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_input(), dev_out_.data(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult ScanInstance::check(stream_t stream) {
  const int poison = problem_.poison_byte();
  if (on_host()) {
    std::memset(host_out_.data(), poison, host_out_.size());
    run(stream);
    return problem_.compare(host_out_.data());
  }
#if TESSERA_HAVE_CUDA
  std::vector<unsigned char> got(problem_.bytes() + 1);
  TESSERA_CUDA(cudaMemsetAsync(dev_out_.data(), poison, dev_out_.bytes(), stream));
  run(stream);
  wait_for_run(stream);
  dev_out_.download(got.data(), got.size());
  CheckResult r = problem_.compare(got.data());
  if (r.ok && got.back() != static_cast<unsigned char>(poison)) {
    r.ok = false;
    r.detail = "wrote past the last output element";
  }
  return r;
#else
  (void)stream;
  return {};
#endif
}

class ScanPattern final : public Pattern {
 public:
  std::string_view name() const override { return "scan"; }
  std::string_view size_meaning() const override { return "elements"; }

  std::vector<VariantInfo> variants() const override { return scan_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<std::size_t> sizes, ex_sizes;
    if (o.size) sizes = ex_sizes = {*o.size};
    else if (o.quick) sizes = ex_sizes = std::vector<std::size_t>(std::begin(QUICK_SIZES), std::end(QUICK_SIZES));
    else {
      sizes.assign(std::begin(VERIFY_SIZES), std::end(VERIFY_SIZES));
      ex_sizes.assign(std::begin(EXCLUSIVE_SIZES), std::end(EXCLUSIVE_SIZES));
    }
    std::vector<ProblemFactory> out;
    for (const auto& base : all_specs(o)) {
      for (bool exclusive : {false, true}) {
        const auto& list = exclusive ? ex_sizes : sizes;
        for (std::size_t i = 0; i < list.size(); ++i) {
          out.push_back(factory({base.dtype, base.op, base.accum, exclusive, list[i]}, verify_distribution(i),
                                o.seed + i, o.gpu));
        }
      }
      if (o.large && base.op == Op::sum && (base.dtype == Dtype::f32 || base.dtype == Dtype::i32) &&
          base.accum == Accum::native)
        out.push_back(factory({base.dtype, base.op, base.accum, false, LARGE_N}, Distribution::uniform, o.seed, o.gpu));
    }
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const std::size_t n = o.size.value_or(o.gpu ? GPU_BENCH_N : CPU_BENCH_N);
    // The headline: the plain float sum. The others: wider float
    // accumulators, integer sums (int32; uint32 exclusive, the offsets of a
    // compaction), double, and one min and one max.
    const std::vector<ScanSpec> defaults = {
        {Dtype::f32, Op::sum, Accum::native, false, n}, {Dtype::f32, Op::sum, Accum::dfloat, false, n},
        {Dtype::f32, Op::sum, Accum::f64, false, n},    {Dtype::i32, Op::sum, Accum::native, false, n},
        {Dtype::u32, Op::sum, Accum::native, true, n},  {Dtype::f64, Op::sum, Accum::native, false, n},
        {Dtype::f32, Op::max, Accum::native, false, n}, {Dtype::i32, Op::min, Accum::native, false, n},
    };
    return spec_bench_factories(o, n, defaults, {0}, all_specs,
                                [&](const ScanSpec& s) { return factory(s, Distribution::uniform, o.seed, o.gpu); });
  }

 private:
  static ProblemFactory factory(const ScanSpec& s, Distribution d, std::uint64_t seed, bool gpu) {
    // Host: input, reference, a CPU rung's output and the checked copy;
    // device: input and output.
    const double bytes = double(s.n) * double(size_of(s.dtype));
    return {spec_label(s), [=] { return std::make_unique<ScanProblem>(s, d, seed, gpu); },
            {.host_bytes = 4 * bytes, .device_bytes = gpu ? 2 * bytes : 0, .host_flops = double(s.n)}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_scan_pattern() { return std::make_unique<ScanPattern>(); }

}  // namespace tessera::harness
