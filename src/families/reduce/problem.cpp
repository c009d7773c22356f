// The reduce pattern as the harness sees it: seeded inputs, the reference
// answer (the step-0 CPU rung), checks and the cost model.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "tessera/blocks/reducers.hpp"
#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "families/register_all.hpp"
#include "families/reduce/contract.hpp"
#include "tessera/reduce.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using reduce_impl::ReduceSpec;
using reduce_impl::ReduceVariant;

// Default sizes. 2^28 elements (1 GiB of float) is far past the 50 MB L2 of
// an H100, so a bench measures DRAM; the CPU-only default stays fast on 2 cores.
constexpr std::size_t GPU_BENCH_N = std::size_t(1) << 28;
constexpr std::size_t CPU_BENCH_N = std::size_t(1) << 24;

// Edge sizes: empty, one, warp and block boundaries +/- 1, primes, a size
// that is not a multiple of anything, and a multi-wave one.
constexpr std::size_t VERIFY_SIZES[] = {0,    1,    2,     31,    32,      33,      255,
                                        256,  257,  1023,  1025,  4097,    65537,   1000003,
                                        (std::size_t(1) << 24) + 7};
constexpr std::size_t QUICK_SIZES[] = {1, 33, 1025, 65537};
constexpr std::size_t LARGE_N = (std::size_t(1) << 31) + 17;  // past 2^31: 64-bit indexing

std::string spec_label(const ReduceSpec& s) {
  const bool show_accum = s.dtype == Dtype::f32 && s.op == Op::sum;
  return fmt::format("{} {}{} n={}", to_string(s.dtype), to_string(s.op),
                     show_accum ? fmt::format(" ({})", to_string(s.accum)) : std::string(), s.n);
}

// Every (type, op, accumulator) the pattern supports, float sums with all
// four accumulators; double sums with the native (double) one only.
std::vector<ReduceSpec> all_specs(const RunOptions& o) {
  constexpr Dtype TYPES[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64};
  std::vector<ReduceSpec> specs;
  for_each_type_op_accum(o, TYPES, [&](Dtype t, Op op, Accum a) { specs.push_back({t, op, a, 0}); });
  return specs;
}

struct Output {
  unsigned char bytes[8];
};

class ReduceProblem;

class ReduceInstance final : public BoundInstance<ReduceProblem, ReduceVariant> {
 public:
  ReduceInstance(const ReduceProblem& p, const ReduceVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<unsigned char> host_ws_;
  Output host_out_{};
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_, dev_out_;
#endif
};

class ReduceProblem final : public Problem {
 public:
  ReduceProblem(const ReduceSpec& spec, Distribution dist, std::uint64_t seed, bool gpu)
      : spec_(spec), gpu_(gpu), input_(spec.n * size_of(spec.dtype) + 1) {
    desc_ = {"reduce", spec_label(spec), std::string(to_string(spec.dtype)), std::string(to_string(spec.op)),
             spec.dtype == Dtype::f32 && spec.op == Op::sum ? std::string(to_string(spec.accum)) : "",
             std::string(to_string(dist)), {spec.n}};
    fill_random(input_.data(), spec.dtype, spec.n, seed, dist);
    // The reference answer: the step-0 rung, serial and compensated.
    const ReduceVariant* ref = reduce_impl::variants_ladder().find("cpu_reference");
    ref->run({spec_, input_.data(), expected_.bytes, nullptr, nullptr});
    abs_sum_ = absolute_sum();
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(input_.size(), "reduce input");
      dev_input_.upload(input_.data(), input_.size());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    const double in_bytes = double(spec_.n) * double(size_of(spec_.dtype));
    return {in_bytes + 8.0, double(spec_.n), Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const ReduceVariant* rv = reduce_impl::variants_ladder().find(v.name);
    return rv != nullptr && (v.backend == Backend::cpu || gpu_) && rv->supports(spec_);
  }
  std::string api_pick(bool gpu) const override { return gpu ? reduce_default_variant(spec_.dtype, spec_.op, spec_.accum, spec_.n) : "cpu_openmp"; }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<ReduceInstance>(*this, reduce_impl::variants_ladder().at(v.name, "reduce"));
  }

  const ReduceSpec& spec() const { return spec_; }
  const void* host_input() const { return input_.data(); }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_input_.data(); }
#endif

  CheckResult compare(const Output& got) const {
    if (spec_.dtype == Dtype::i32 || spec_.dtype == Dtype::i64) {
      long long g, e;
      std::memcpy(&g, got.bytes, 8);
      std::memcpy(&e, expected_.bytes, 8);
      return check_exact_int(g, e);
    }
    const double g = as_double(got), e = as_double(expected_);
    const bool exact = spec_.op != Op::sum;
    return check_scalar(g, e, exact, exact ? 0.0 : sum_tolerance(spec_.dtype, spec_.accum, spec_.n, abs_sum_));
  }

  // A byte pattern that differs from the expected answer, to detect an
  // output the variant never wrote.
  int poison_byte() const {
    Output p;
    std::memset(p.bytes, 0xFF, sizeof p.bytes);
    return std::memcmp(p.bytes, expected_.bytes, result_size()) == 0 ? 0xA5 : 0xFF;
  }
  std::size_t result_size() const { return spec_.dtype == Dtype::f32 ? 4 : 8; }

 private:
  double as_double(const Output& o) const {
    if (spec_.dtype == Dtype::f32) {
      float f;
      std::memcpy(&f, o.bytes, 4);
      return f;
    }
    double d;
    std::memcpy(&d, o.bytes, 8);
    return d;
  }

  double absolute_sum() const {
    const auto n = static_cast<std::int64_t>(spec_.n);
    double s = 0;
    if (spec_.dtype == Dtype::f32) {
      const float* x = reinterpret_cast<const float*>(input_.data());
#pragma omp parallel for reduction(+ : s)
      for (std::int64_t i = 0; i < n; ++i) s += std::fabs(double(x[i]));
    } else if (spec_.dtype == Dtype::f64) {
      const double* x = reinterpret_cast<const double*>(input_.data());
#pragma omp parallel for reduction(+ : s)
      for (std::int64_t i = 0; i < n; ++i) s += std::fabs(x[i]);
    }
    return s;
  }

  ReduceSpec spec_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<unsigned char> input_;  // +1 byte: a valid pointer even when n == 0
  Output expected_{};
  double abs_sum_ = 0;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_input_;
#endif
};

ReduceInstance::ReduceInstance(const ReduceProblem& p, const ReduceVariant& v) : BoundInstance(p, v) {
  const std::size_t ws = v.workspace_bytes(p.spec());
  if (on_host()) {
    host_ws_.resize(ws);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_ws_ = DeviceBytes(ws, "reduce workspace");
  dev_out_ = DeviceBytes(8, "reduce output");
#endif
}

void ReduceInstance::run(stream_t stream) {
  const auto& spec = problem_.spec();
  if (on_host()) {
    variant_.run({spec, problem_.host_input(), host_out_.bytes, host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_input(), dev_out_.data(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult ReduceInstance::check(stream_t stream) {
  Output got{};
  const int poison = problem_.poison_byte();
  if (on_host()) {
    std::memset(host_out_.bytes, poison, sizeof host_out_.bytes);
    run(stream);
    got = host_out_;
  } else {
#if TESSERA_HAVE_CUDA
    TESSERA_CUDA(cudaMemsetAsync(dev_out_.data(), poison, 8, stream));
    run(stream);
    wait_for_run(stream);
    dev_out_.download(got.bytes, 8);
#endif
  }
  return problem_.compare(got);
}

class ReducePattern final : public Pattern {
 public:
  std::string_view name() const override { return "reduce"; }
  std::string_view size_meaning() const override { return "elements"; }

  std::vector<VariantInfo> variants() const override { return reduce_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<std::size_t> sizes;
    if (o.size) sizes = {*o.size};
    else if (o.quick) sizes.assign(std::begin(QUICK_SIZES), std::end(QUICK_SIZES));
    else sizes.assign(std::begin(VERIFY_SIZES), std::end(VERIFY_SIZES));
    std::vector<ProblemFactory> out;
    for (const auto& base : all_specs(o)) {
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        out.push_back(
            factory({base.dtype, base.op, base.accum, sizes[i]}, verify_distribution(i), o.seed + i, o.gpu));
      }
      if (o.large && (base.op == Op::sum) && (base.dtype == Dtype::f32 || base.dtype == Dtype::i32) &&
          base.accum == Accum::native)
        out.push_back(factory({base.dtype, base.op, base.accum, LARGE_N}, Distribution::uniform, o.seed, o.gpu));
    }
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const std::size_t n = o.size.value_or(o.gpu ? GPU_BENCH_N : CPU_BENCH_N);
    // The ladder's headline problems: float sum with each accumulator, the
    // other types' sums, and one min and one max.
    const std::vector<ReduceSpec> defaults = {
        {Dtype::f32, Op::sum, Accum::native, n}, {Dtype::f32, Op::sum, Accum::f64, n},
        {Dtype::f32, Op::sum, Accum::kahan, n},  {Dtype::f32, Op::sum, Accum::dfloat, n},
        {Dtype::f64, Op::sum, Accum::native, n}, {Dtype::i32, Op::sum, Accum::native, n},
        {Dtype::i64, Op::sum, Accum::native, n}, {Dtype::f32, Op::max, Accum::native, n},
        {Dtype::i32, Op::min, Accum::native, n},
    };
    // The headline run: the plain float sum and its double-float twin.
    return spec_bench_factories(o, n, defaults, {0, 3}, all_specs,
                                [&](const ReduceSpec& s) { return factory(s, Distribution::uniform, o.seed, o.gpu); });
  }

 private:
  static ProblemFactory factory(const ReduceSpec& s, Distribution d, std::uint64_t seed, bool gpu) {
    // The input on the host and, with a GPU, its copy on the device.
    const double input = double(s.n) * double(size_of(s.dtype));
    return {spec_label(s), [=] { return std::make_unique<ReduceProblem>(s, d, seed, gpu); },
            {.host_bytes = input, .device_bytes = gpu ? input : 0, .host_flops = double(s.n)}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_reduce_pattern() { return std::make_unique<ReducePattern>(); }

}  // namespace tessera::harness
