// The seven composition patterns (map, adjacent_difference, compact,
// partition, unique, find_unique, rle) as the harness sees them: seeded
// inputs, the reference answer (the step-0 CPU rung), poisoned outputs with
// every element checked, and the cost model. One Problem class serves all
// seven; they differ only in their inputs and in which outputs they write.
//
// Checks are exact (bitwise; floats also accept NaN for NaN): every rung
// moves or computes elements with the same operations (ops.hpp).
// Outputs are poisoned with a byte pattern that no expected element has, so
// an element the variant failed to write is caught; everything past the
// written extent (the count, or n) must still hold the poison: nothing may be
// written past the count. When no single pattern works (e.g. all 256 bytes
// present) the check runs twice with two poisons.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "families/compose/problem_inputs.hpp"
#include "families/register_all.hpp"
#include "families/compose/contract.hpp"
#include "tessera/compact.hpp"
#include "families/compose/dispatch.hpp"
#include "families/compose/policy.hpp"
#include "tessera/core/error.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using compose_impl::Call;
using compose_impl::Family;
using compose_impl::Spec;
using compose_impl::Variant;

// Default sizes. 2^28 elements (1 GiB of 4-byte keys) is far past the 50 MB L2
// of an H100, so a bench measures DRAM; the CPU-only default stays fast on 2
// cores. find_unique's headline is the known-domain method over 2^30 text
// bytes; its int32 problem is sort-based and the CPU reference sorts serially,
// hence the smaller size (still > L2).
constexpr std::size_t GPU_BENCH_N = std::size_t(1) << 28;
constexpr std::size_t CPU_BENCH_N = std::size_t(1) << 24;
constexpr std::size_t GPU_TEXT_N = std::size_t(1) << 30;
constexpr std::size_t CPU_TEXT_N = std::size_t(1) << 24;
constexpr std::size_t SORT_BENCH_N = std::size_t(1) << 24;

// Edge sizes: empty, one, warp and block boundaries +/- 1, the 4096-element
// tile of the 4-byte select kernels +/- 1, primes, a multi-wave size.
constexpr std::size_t VERIFY_SIZES[] = {0,    1,    2,    31,   32,    33,      255,     256,     257,
                                        1023, 2047, 2049, 4095, 4096,  4097,    65537,   1000003,
                                        (std::size_t(1) << 24) + 7};
constexpr std::size_t QUICK_SIZES[] = {1, 33, 4097, 65537};
constexpr std::size_t LARGE_N = (std::size_t(1) << 31) + 17;  // past 2^31: 64-bit indexing and counts

struct Case {
  Spec spec;
  Distribution dist = Distribution::uniform;
  // compact/partition: the fraction selected (greater, nonzero, flagged);
  // unique/rle: the run-head probability (0: draw keys from `dist` instead).
  double fraction = 0;
  std::string file;  // find_unique of uint8: the bytes of this file, repeated
  std::uint64_t seed = 0;
  bool gpu = false;
};

std::string percent(double f) { return fmt::format("{:g}%", f * 100.0); }

std::string op_name(const Case& c) {
  switch (c.spec.family) {
    case Family::map: return std::string(to_string(c.spec.fn));
    case Family::adjacent_difference: return "absdiff";
    case Family::compact:
    case Family::partition: return c.spec.flagged ? "flagged" : std::string(to_string(c.spec.pred));
    case Family::unique: return "unique";
    case Family::find_unique: return "distinct";
    case Family::rle: return "rle";
  }
  return "?";
}

std::string distribution_name(const Case& c) {
  if (!c.file.empty()) return "file";
  const bool runs = (c.spec.family == Family::unique || c.spec.family == Family::rle) && c.fraction > 0;
  return runs ? "runs" : std::string(to_string(c.dist));
}

std::string case_label(const Case& c) {
  const auto type = to_string(c.spec.dtype);
  const std::size_t n = c.spec.n;
  switch (c.spec.family) {
    case Family::map: return fmt::format("{} {} n={}", type, to_string(c.spec.fn), n);
    case Family::adjacent_difference: return fmt::format("{} n={}", type, n);
    case Family::compact:
    case Family::partition:
      if (c.spec.flagged) return fmt::format("{} flagged {} n={}", type, percent(c.fraction), n);
      switch (c.spec.pred) {
        case Pred::greater: return fmt::format("{} x>t {} n={}", type, percent(c.fraction), n);
        case Pred::nonzero: return fmt::format("{} x!=0 {} n={}", type, percent(c.fraction), n);
        case Pred::even: return fmt::format("{} even n={}", type, n);
      }
      break;
    case Family::unique:
    case Family::rle:
      if (c.fraction > 0) return fmt::format("{} runs {} n={}", type, percent(c.fraction), n);
      return fmt::format("{} {} n={}", type, to_string(c.dist), n);
    case Family::find_unique:
      if (!c.file.empty())
        return fmt::format("{} file {} n={}", type, std::filesystem::path(c.file).filename().string(), n);
      return fmt::format("{} {} n={}", type, to_string(c.dist), n);
  }
  return "?";
}

// Element i of an array of `es`-byte elements as text (failure messages).
std::string element_text(Dtype t, const unsigned char* p) {
  std::string s;
  compose_impl::dispatch_any_type(t, [&]<class T>() {
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (sizeof(T) == 1) s = fmt::format("{}", static_cast<unsigned>(v));
    else s = fmt::format("{}", v);
  });
  return s;
}

// Bitwise equality, or both NaN for floats.
bool same_element(Dtype t, const unsigned char* a, const unsigned char* b) {
  const std::size_t es = size_of(t);
  if (std::memcmp(a, b, es) == 0) return true;
  if (t == Dtype::f32) {
    float x, y;
    std::memcpy(&x, a, 4);
    std::memcpy(&y, b, 4);
    return std::isnan(x) && std::isnan(y);
  }
  if (t == Dtype::f64) {
    double x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    return std::isnan(x) && std::isnan(y);
  }
  return false;
}

// The first index in [0, count) where `pred(i)` fails; count if none.
template <class P>
std::size_t first_failure(std::size_t count, P&& pred) {
  const auto n = static_cast<std::int64_t>(count);
  std::int64_t first = n;
#pragma omp parallel for schedule(static) reduction(min : first)
  for (std::int64_t i = 0; i < n; ++i)
    if (i < first && !pred(static_cast<std::size_t>(i))) first = i;
  return static_cast<std::size_t>(first);
}

class ComposeProblem;

// What a variant wrote (host copies).
struct Outputs {
  std::vector<unsigned char> out;
  std::vector<std::int64_t> lengths;
  std::int64_t count = 0;
};

class ComposeInstance final : public BoundInstance<ComposeProblem, Variant> {
 public:
  ComposeInstance(const ComposeProblem& p, const Variant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  void poison(int byte, stream_t stream);
  void fetch(Outputs& got);

  std::vector<unsigned char> host_ws_;
  Outputs host_;  // CPU variants write here directly
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_, dev_out_, dev_lengths_, dev_count_;
#endif
};

class ComposeProblem final : public Problem {
 public:
  explicit ComposeProblem(const Case& c) : case_(c), spec_(c.spec) {
    const std::size_t n = spec_.n, es = size_of(spec_.dtype);
    desc_ = {std::string(to_string(spec_.family)), case_label(c), std::string(to_string(spec_.dtype)), op_name(c), "",
             distribution_name(c), {n}};
    generate();
    // The reference answer: the step-0 rung.
    expected_.out.assign(capacity() * es, 0);
    if (compose_impl::has_lengths(spec_.family)) expected_.lengths.assign(capacity(), 0);
    const Variant* ref = compose_impl::find_variant(spec_.family, "cpu_reference");
    ref->run(Call{spec_, input_.data(), flags_.empty() ? nullptr : flags_.data(), expected_.out.data(),
                  expected_.lengths.data(), &expected_.count, nullptr, nullptr});
    choose_poisons();
#if TESSERA_HAVE_CUDA
    if (c.gpu) {
      dev_in_ = DeviceBytes(n * es, "compose input");
      dev_in_.upload(input_.data(), n * es);
      if (spec_.flagged) {
        dev_flags_ = DeviceBytes(n, "compose flags");
        dev_flags_.upload(flags_.data(), n);
      }
      // Pageable uploads may still be in flight when cudaMemcpy returns; the
      // variants run on a non-blocking stream.
      TESSERA_CUDA(cudaDeviceSynchronize());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }

  // Input read once (+ the flags), the outputs written once, the count.
  Cost cost() const override {
    const double n = static_cast<double>(spec_.n), es = static_cast<double>(size_of(spec_.dtype));
    const double k = static_cast<double>(expected_.count);
    double bytes = n * es + (spec_.flagged ? n : 0.0);
    switch (spec_.family) {
      case Family::map:
      case Family::adjacent_difference: bytes += n * es; break;
      case Family::partition: bytes += n * es + 8; break;
      case Family::rle: bytes += k * (es + 8) + 8; break;
      default: bytes += k * es + 8; break;
    }
    return {bytes, 0.0, Bound::memory};
  }

  bool supports(const VariantInfo& v) const override {
    const Variant* cv = compose_impl::find_variant(spec_.family, v.name);
    return cv != nullptr && (v.backend == Backend::cpu || case_.gpu) && cv->supports(spec_);
  }

  // The policy's pick for this very call (flagged compaction has its own).
  std::string api_pick(bool gpu) const override { return std::string(compose_impl::default_variant(spec_, gpu)); }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<ComposeInstance>(*this, *compose_impl::find_variant(spec_.family, v.name));
  }

  const Spec& spec() const { return spec_; }
  std::size_t capacity() const { return compose_impl::output_capacity(spec_); }
  const void* host_input() const { return input_.data(); }
  const std::uint8_t* host_flags() const { return flags_.empty() ? nullptr : flags_.data(); }
  const std::vector<int>& poisons() const { return poisons_; }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_in_.data(); }
  const std::uint8_t* device_flags() const { return static_cast<const std::uint8_t*>(dev_flags_.data()); }
#endif

  // Elements of `out` the variant must write (the rest keeps the poison).
  std::size_t out_extent() const {
    if (!compose_impl::has_count(spec_.family) || spec_.family == Family::partition) return spec_.n;
    return static_cast<std::size_t>(expected_.count);
  }

  CheckResult compare(const Outputs& got, int poison) const {
    CheckResult r;
    r.ok = false;
    const Dtype t = spec_.dtype;
    const std::size_t es = size_of(t);
    if (compose_impl::has_count(spec_.family) && got.count != expected_.count) {
      r.detail = fmt::format("count: got {}, expected {}", got.count, expected_.count);
      return r;
    }
    const std::size_t extent = out_extent();
    std::size_t bad = first_failure(extent, [&](std::size_t i) {
      return same_element(t, got.out.data() + i * es, expected_.out.data() + i * es);
    });
    if (bad < extent) {
      r.detail = fmt::format("out[{}] = {}, expected {} ({} elements written of {})", bad,
                             element_text(t, got.out.data() + bad * es), element_text(t, expected_.out.data() + bad * es),
                             extent, capacity());
      return r;
    }
    const auto poison_byte = static_cast<unsigned char>(poison);
    const std::size_t out_bytes = capacity() * es;
    bad = first_failure(out_bytes - extent * es, [&](std::size_t b) { return got.out[extent * es + b] == poison_byte; });
    if (bad < out_bytes - extent * es) {
      r.detail = fmt::format("out[{}] written past the end of the result ({} elements)", extent + bad / es, extent);
      return r;
    }
    if (compose_impl::has_lengths(spec_.family)) {
      const auto k = static_cast<std::size_t>(expected_.count);
      bad = first_failure(k, [&](std::size_t i) { return got.lengths[i] == expected_.lengths[i]; });
      if (bad < k) {
        r.detail = fmt::format("lengths[{}] = {}, expected {}", bad, got.lengths[bad], expected_.lengths[bad]);
        return r;
      }
      std::int64_t poisoned;
      std::memset(&poisoned, poison, sizeof poisoned);
      bad = first_failure(capacity() - k, [&](std::size_t i) { return got.lengths[k + i] == poisoned; });
      if (bad < capacity() - k) {
        r.detail = fmt::format("lengths[{}] written past the number of runs ({})", k + bad, k);
        return r;
      }
    }
    r.ok = true;
    return r;
  }

 private:
  void generate() {
    const std::size_t n = spec_.n, es = size_of(spec_.dtype);
    input_.assign(n * es + 16, 0);  // + 16: a valid pointer even when n == 0
    void* x = input_.data();
    const bool runs = (spec_.family == Family::unique || spec_.family == Family::rle) && case_.fraction > 0;
    if (!case_.file.empty() && spec_.dtype == Dtype::u8) fill_from_file(input_.data(), n, case_.file);
    else if (runs) fill_runs(x, spec_.dtype, n, case_.seed, case_.fraction);
    else fill_random(x, spec_.dtype, n, case_.seed, case_.dist);
    if (spec_.family != Family::compact && spec_.family != Family::partition) return;
    if (spec_.flagged) {
      flags_.assign(n + 16, 0);
      fill_flags(flags_.data(), n, case_.seed, case_.fraction);
    } else if (spec_.pred == Pred::greater) {
      spec_.threshold_bits = threshold_for_fraction(x, spec_.dtype, n, case_.fraction);
    } else if (spec_.pred == Pred::nonzero) {
      zero_fraction(x, spec_.dtype, n, case_.seed, case_.fraction);
    }
  }

  // A poison byte no expected element (nor the count) equals when repeated.
  void choose_poisons() {
    const Dtype t = spec_.dtype;
    const std::size_t es = size_of(t), extent = out_extent();
    for (int candidate : {0xA5, 0x5A, 0xC3, 0x3C, 0xFF, 0x00}) {
      unsigned char pattern[8];
      std::memset(pattern, candidate, sizeof pattern);
      std::int64_t p64;
      std::memcpy(&p64, pattern, 8);
      bool clash = compose_impl::has_count(spec_.family) && expected_.count == p64;
      clash = clash || first_failure(extent, [&](std::size_t i) {
                         return !same_element(t, expected_.out.data() + i * es, pattern);
                       }) < extent;
      const std::size_t k = expected_.lengths.empty() ? 0 : static_cast<std::size_t>(expected_.count);
      clash = clash || first_failure(k, [&](std::size_t i) { return expected_.lengths[i] != p64; }) < k;
      if (!clash) {
        poisons_ = {candidate};
        return;
      }
    }
    poisons_ = {0x00, 0xFF};  // an unwritten element cannot equal both
  }

  Case case_;
  Spec spec_;
  ProblemDesc desc_;
  std::vector<unsigned char> input_;
  std::vector<std::uint8_t> flags_;
  Outputs expected_;
  std::vector<int> poisons_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_in_, dev_flags_;
#endif
};

ComposeInstance::ComposeInstance(const ComposeProblem& p, const Variant& v) : BoundInstance(p, v) {
  const Spec& s = p.spec();
  const std::size_t cap = p.capacity(), es = size_of(s.dtype);
  const bool lengths = compose_impl::has_lengths(s.family);
  const std::size_t ws = v.workspace_bytes(s);
  if (on_host()) {
    host_ws_.resize(ws);
    host_.out.resize(cap * es);
    if (lengths) host_.lengths.resize(cap);
    return;
  }
#if TESSERA_HAVE_CUDA
  // Exactly the capacity: compute-sanitizer memcheck catches a write past it.
  dev_ws_ = DeviceBytes(ws, "compose workspace");
  dev_out_ = DeviceBytes(cap * es, "compose output");
  if (lengths) dev_lengths_ = DeviceBytes(cap * sizeof(std::int64_t), "compose run lengths");
  dev_count_ = DeviceBytes(sizeof(std::int64_t), "compose count");
#endif
}

void ComposeInstance::run(stream_t stream) {
  const Spec& s = problem_.spec();
  if (on_host()) {
    variant_.run(Call{s, problem_.host_input(), problem_.host_flags(), host_.out.data(), host_.lengths.data(),
                      &host_.count, host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run(Call{s, problem_.device_input(), problem_.device_flags(), dev_out_.data(),
                    static_cast<std::int64_t*>(dev_lengths_.data()), static_cast<std::int64_t*>(dev_count_.data()),
                    dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

void ComposeInstance::poison(int byte, stream_t stream) {
  if (on_host()) {
    std::memset(host_.out.data(), byte, host_.out.size());
    std::memset(host_.lengths.data(), byte, host_.lengths.size() * sizeof(std::int64_t));
    std::memset(&host_.count, byte, sizeof host_.count);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(byte, stream);
  dev_lengths_.fill_bytes(byte, stream);
  dev_count_.fill_bytes(byte, stream);
#else
  (void)stream;
#endif
}

void ComposeInstance::fetch(Outputs& got) {
  if (on_host()) {
    got = host_;
    return;
  }
#if TESSERA_HAVE_CUDA
  const Spec& s = problem_.spec();
  got.out.resize(problem_.capacity() * size_of(s.dtype));
  dev_out_.download(got.out.data(), dev_out_.bytes());
  got.lengths.resize(dev_lengths_.bytes() / sizeof(std::int64_t));
  dev_lengths_.download(got.lengths.data(), dev_lengths_.bytes());
  dev_count_.download(&got.count, sizeof got.count);
#endif
}

CheckResult ComposeInstance::check(stream_t stream) {
  CheckResult r;
  for (int p : problem_.poisons()) {
    poison(p, stream);
    run(stream);
#if TESSERA_HAVE_CUDA
    if (!on_host()) wait_for_run(stream);
#endif
    Outputs got;
    fetch(got);
    r = problem_.compare(got, p);
    if (!r.ok) return r;
  }
  return r;
}

// ---- the problems of each pattern -------------------------------------------

Case make_case(Family f, Dtype t) {
  Case c;
  c.spec.family = f;
  c.spec.dtype = t;
  return c;
}
Case map_case(Dtype t, MapFn fn) {
  Case c = make_case(Family::map, t);
  c.spec.fn = fn;
  return c;
}
Case select_case(Family f, Dtype t, Pred p, double fraction) {
  Case c = make_case(f, t);
  c.spec.pred = p;
  c.fraction = fraction;
  return c;
}
Case flagged_case(Dtype t, double fraction) {
  Case c = make_case(Family::compact, t);
  c.spec.flagged = true;
  c.fraction = fraction;
  return c;
}
Case runs_case(Family f, Dtype t, double head_prob) {
  Case c = make_case(f, t);
  c.fraction = head_prob;
  return c;
}
Case dist_case(Family f, Dtype t, Distribution d) {
  Case c = make_case(f, t);
  c.dist = d;
  return c;
}

// Verify cases of a family (without size and seed).
std::vector<Case> verify_cases(Family f, const RunOptions& o) {
  switch (f) {
    case Family::map:
      return {map_case(Dtype::f32, MapFn::twice),  map_case(Dtype::f32, MapFn::square),
              map_case(Dtype::f64, MapFn::square), map_case(Dtype::i32, MapFn::twice),
              map_case(Dtype::u32, MapFn::square), map_case(Dtype::i64, MapFn::twice)};
    case Family::adjacent_difference:
      return {make_case(f, Dtype::f32), make_case(f, Dtype::f64), make_case(f, Dtype::i32),
              make_case(f, Dtype::u32), make_case(f, Dtype::i64), dist_case(f, Dtype::i32, Distribution::skewed)};
    case Family::compact:
      return {select_case(f, Dtype::f32, Pred::greater, 0.5),  select_case(f, Dtype::f32, Pred::greater, 0.05),
              select_case(f, Dtype::i32, Pred::even, 0),       select_case(f, Dtype::u32, Pred::nonzero, 0.95),
              select_case(f, Dtype::i64, Pred::greater, 0.5),  flagged_case(Dtype::f32, 0.5),
              flagged_case(Dtype::i64, 0.05)};
    case Family::partition:
      return {select_case(f, Dtype::f32, Pred::greater, 0.5), select_case(f, Dtype::i32, Pred::even, 0),
              select_case(f, Dtype::u32, Pred::nonzero, 0.05), select_case(f, Dtype::i64, Pred::greater, 0.95)};
    case Family::unique:
    case Family::rle:
      return {runs_case(f, Dtype::i32, 0.5),  runs_case(f, Dtype::f32, 0.05),
              runs_case(f, Dtype::u32, 0.95), runs_case(f, Dtype::i64, 0.2),
              dist_case(f, Dtype::i32, Distribution::constant), dist_case(f, Dtype::f32, Distribution::uniform),
              dist_case(f, Dtype::u32, Distribution::skewed)};
    case Family::find_unique: {
      Case text = dist_case(f, Dtype::u8, Distribution::text);
      text.file = o.input;
      return {text, dist_case(f, Dtype::u8, Distribution::uniform), dist_case(f, Dtype::u8, Distribution::constant),
              dist_case(f, Dtype::i32, Distribution::small), dist_case(f, Dtype::u32, Distribution::skewed)};
    }
  }
  return {};
}

// Bench cases of a family at size n (the first is the headline).
std::vector<Case> bench_cases(Family f, const RunOptions& o) {
  switch (f) {
    case Family::map:
      return {map_case(Dtype::f32, MapFn::twice), map_case(Dtype::f64, MapFn::twice),
              map_case(Dtype::i32, MapFn::square), map_case(Dtype::i64, MapFn::twice)};
    case Family::adjacent_difference:
      return {make_case(f, Dtype::f32), make_case(f, Dtype::f64), make_case(f, Dtype::i32),
              make_case(f, Dtype::i64)};
    case Family::compact:
      return {select_case(f, Dtype::f32, Pred::greater, 0.5), select_case(f, Dtype::f32, Pred::greater, 0.05),
              select_case(f, Dtype::f32, Pred::greater, 0.95), select_case(f, Dtype::i32, Pred::greater, 0.5),
              select_case(f, Dtype::i32, Pred::even, 0),       flagged_case(Dtype::f32, 0.5),
              select_case(f, Dtype::i64, Pred::greater, 0.5)};
    case Family::partition:
      return {select_case(f, Dtype::f32, Pred::greater, 0.5), select_case(f, Dtype::f32, Pred::greater, 0.05),
              select_case(f, Dtype::i32, Pred::even, 0)};
    case Family::unique:
      return {runs_case(f, Dtype::i32, 0.5), runs_case(f, Dtype::i32, 0.05), runs_case(f, Dtype::i32, 0.95),
              runs_case(f, Dtype::f32, 0.5), runs_case(f, Dtype::i64, 0.5)};
    case Family::rle:
      return {runs_case(f, Dtype::i32, 0.1), runs_case(f, Dtype::i32, 0.5), runs_case(f, Dtype::f32, 0.1),
              runs_case(f, Dtype::i64, 0.1)};
    case Family::find_unique: {
      Case text = dist_case(f, Dtype::u8, Distribution::text);
      text.file = o.input;
      return {text, dist_case(f, Dtype::u8, Distribution::uniform), dist_case(f, Dtype::i32, Distribution::small)};
    }
  }
  return {};
}

std::size_t bench_size(const Case& c, const RunOptions& o) {
  if (o.size) return *o.size;
  if (c.spec.family == Family::find_unique)
    return c.spec.dtype == Dtype::u8 ? (o.gpu ? GPU_TEXT_N : CPU_TEXT_N) : SORT_BENCH_N;
  return o.gpu ? GPU_BENCH_N : CPU_BENCH_N;
}

class ComposePattern final : public Pattern {
 public:
  explicit ComposePattern(Family f) : family_(f) {}
  std::string_view name() const override { return compose_impl::to_string(family_); }
  std::string_view size_meaning() const override { return "elements"; }

  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out;
    for (const auto& v : compose_impl::variants(family_)) out.push_back(v.info);
    return out;
  }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<std::size_t> sizes;
    if (o.size) sizes = {*o.size};
    else if (o.quick) sizes.assign(std::begin(QUICK_SIZES), std::end(QUICK_SIZES));
    else sizes.assign(std::begin(VERIFY_SIZES), std::end(VERIFY_SIZES));
    std::vector<ProblemFactory> out;
    const auto cases = verify_cases(family_, o);
    for (const Case& base : cases) {
      if (o.type && *o.type != base.spec.dtype) continue;
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        Case c = base;
        c.spec.n = sizes[i];
        c.seed = o.seed + i;
        c.gpu = o.gpu;
        out.push_back(factory(c));
      }
    }
    // Past 2^31 elements: the first case of the families whose buffers fit an
    // 80 GB GPU with every variant's workspace (rle's int64 run lengths and
    // its flags/scan arrays do not).
    if (o.large && family_ != Family::rle && !cases.empty() && (!o.type || *o.type == cases.front().spec.dtype)) {
      Case c = cases.front();
      c.spec.n = LARGE_N;
      c.seed = o.seed;
      c.gpu = o.gpu;
      out.push_back(factory(c));
    }
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    for (const Case& base : bench_cases(family_, o)) {
      if (o.type && *o.type != base.spec.dtype) continue;
      Case c = base;
      c.spec.n = bench_size(c, o);
      c.seed = o.seed;
      c.gpu = o.gpu;
      out.push_back(factory(c));
      if (o.headline) break;  // one headline problem per pattern: the whole no-argument bench stays short
    }
    return out;
  }

 private:
  static ProblemFactory factory(const Case& c) {
    // Per element: the key (host: input, reference, a CPU rung's output and
    // the checked copy; device: input and output), a flag byte each side and
    // up to two 8-byte run lengths (reference and output).
    const double n = double(c.spec.n), key = double(size_of(c.spec.dtype));
    return {case_label(c), [c] { return std::make_unique<ComposeProblem>(c); },
            {.host_bytes = n * (4 * key + 1 + 16), .device_bytes = c.gpu ? n * (2 * key + 1 + 8) : 0,
             .host_flops = n}};
  }
  Family family_;
};

}  // namespace

std::vector<std::unique_ptr<Pattern>> make_compose_patterns() {
  std::vector<std::unique_ptr<Pattern>> out;
  for (Family f : compose_impl::ALL_FAMILIES) out.push_back(std::make_unique<ComposePattern>(f));
  return out;
}

}  // namespace tessera::harness
