// The histogram pattern as the harness sees it: seeded inputs (uniform,
// skewed, English-like text or a user's file for bytes; uniform, skewed or
// constant floats with NaN, infinities and edge values sprinkled in), the
// reference answer (the step-0 CPU rung), exact checks of every bin and of
// the out-of-range count, and the cost model.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

#include "families/histogram/bins.hpp"
#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "families/register_all.hpp"
#include "families/histogram/contract.hpp"
#include "families/histogram/policy.hpp"
#include "tessera/histogram.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using histogram_impl::HistogramCall;
using histogram_impl::HistogramSpec;
using histogram_impl::HistogramVariant;

// Default sizes: 2^30 bytes (the headline: 1 GiB, far past the 50 MB L2 of
// an H100) and 2^28 floats (1 GiB too); the CPU-only defaults stay fast on 2
// cores.
constexpr std::size_t GPU_BYTES_N = std::size_t(1) << 30;
constexpr std::size_t GPU_FLOATS_N = std::size_t(1) << 28;
constexpr std::size_t CPU_BYTES_N = std::size_t(1) << 24;
constexpr std::size_t CPU_FLOATS_N = std::size_t(1) << 22;

// Edge sizes: empty, one, around the 16-byte vector (15, 16, 17), warp and
// block boundaries, primes, a multi-wave size that is not a multiple of
// anything.
constexpr std::size_t BYTE_SIZES[] = {0,    1,    2,    15,    16,    17,      31,      127,
                                      128,  129,  255,  257,   1000,  4097,    65537,   1000003,
                                      (std::size_t(1) << 24) + 7};
constexpr std::size_t FLOAT_SIZES[] = {0, 1, 3, 4, 5, 17, 257, 4097, 65537, 1000003};
constexpr std::size_t QUICK_BYTE_SIZES[] = {1, 17, 1025, 65537};
constexpr std::size_t QUICK_FLOAT_SIZES[] = {5, 4099};
constexpr std::size_t LARGE_N = (std::size_t(1) << 31) + 17;  // bytes past 2^31: 64-bit indexing

// Float histograms checked by verify: a single bin, few, a count that is not
// a power of two over an offset range, many, and a range whose top edge
// rounds onto bin `bins` (the clamp; CUB declines it).
struct FloatBins {
  int bins;
  float lo, hi;
};
constexpr FloatBins VERIFY_FLOAT_BINS[] = {{1, 0.0f, 1.0f}, {64, -0.5f, 1.5f}, {100, -2.0f, 6.0f},
                                          {1024, 0.0f, 1.0f}, {4096, -1.0f, 1.0f}};
// Bench: [-0.5, 1.5) holds 87.5% of the uniform floats ([-0.75, 1.25)),
// and every bin edge of a power-of-two bin count is exact.
constexpr float BENCH_LO = -0.5f, BENCH_HI = 1.5f;

// One in SPECIAL_EVERY float elements (at seeded positions) becomes a special
// value: NaN, +-inf, lo, hi, the float below hi (the top edge), the float
// below lo, -0, a subnormal.
constexpr std::uint64_t SPECIAL_EVERY = 509;

void sprinkle_specials(float* x, std::size_t n, const HistogramSpec& s, std::uint64_t seed) {
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            s.lo,
                            s.hi,
                            std::nextafter(s.hi, s.lo),
                            std::nextafter(s.lo, -std::numeric_limits<float>::infinity()),
                            -0.0f,
                            std::numeric_limits<float>::denorm_min()};
  constexpr std::uint64_t kinds = sizeof(specials) / sizeof(specials[0]);
  const auto len = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < len; ++i) {
    const std::uint64_t r = mix64(seed ^ 0x5EC1A15ull, static_cast<std::uint64_t>(i));
    if (r % SPECIAL_EVERY == 0) x[i] = specials[(r / SPECIAL_EVERY) % kinds];
  }
}

// Where the input comes from.
struct Source {
  Distribution dist = Distribution::uniform;
  std::string file;       // bytes only: the file's bytes, repeated
  bool specials = false;  // floats: sprinkle special values
};

std::string source_name(const Source& src) {
  if (!src.file.empty()) return "file " + std::filesystem::path(src.file).filename().string();
  return std::string(to_string(src.dist));
}

class HistogramProblem;

class HistogramInstance final : public BoundInstance<HistogramProblem, HistogramVariant> {
 public:
  HistogramInstance(const HistogramProblem& p, const HistogramVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<unsigned char> host_ws_;
  std::vector<std::uint32_t> host_counts_;  // bins + GUARD_WORDS
  std::uint32_t host_oor_[1 + 1] = {};      // the count and one guard word
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_ws_;
  DeviceBuffer<std::uint32_t> dev_counts_, dev_oor_;
#endif
};

// Words after the counts (and after out_of_range) that must stay poisoned.
constexpr std::size_t GUARD_WORDS = 16;
constexpr int POISON_BYTE = 0xA5;
constexpr std::uint32_t POISON_WORD = 0xA5A5A5A5u;

class HistogramProblem final : public Problem {
 public:
  HistogramProblem(const HistogramSpec& spec, const Source& src, std::uint64_t seed, bool gpu, bool skip_global)
      : spec_(spec), gpu_(gpu), skip_global_(skip_global) {
    const std::size_t elem = size_of(spec.dtype);
    input_.resize(spec.n * elem + 16);  // + 16: a valid pointer when n == 0
    const std::string where = source_name(src);
    desc_ = {"histogram", fmt::format("{} {}", histogram_impl::describe(spec), where),
             std::string(to_string(spec.dtype)), "histogram", "", src.file.empty() ? where : "file", {spec.n}};
    if (!src.file.empty()) {
      fill_from_file(input_.data(), spec.n, src.file);
    } else {
      fill_random(input_.data(), spec.dtype, spec.n, seed, src.dist);
      if (spec.dtype == Dtype::f32 && src.specials)
        sprinkle_specials(reinterpret_cast<float*>(input_.data()), spec.n, spec, seed);
    }
    // The reference answer: the step-0 rung, serial.
    expected_.resize(static_cast<std::size_t>(spec.bins));
    const HistogramVariant* ref = histogram_impl::variants_ladder().find("cpu_reference");
    ref->run({spec_, input_.data(), expected_.data(), &expected_oor_, nullptr, nullptr});
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(input_.size(), "histogram input");
      dev_input_.upload(input_.data(), input_.size());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    // Read every element once, write every count and the out-of-range count
    // once; one bin update per element.
    const double bytes = double(spec_.n) * double(size_of(spec_.dtype)) + double(spec_.bins + 1) * 4.0;
    return {bytes, double(spec_.n), Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const HistogramVariant* hv = histogram_impl::variants_ladder().find(v.name);
    if (hv == nullptr || (v.backend == Backend::cuda && !gpu_)) return false;
    if (skip_global_ && v.step == 2) return false;
    return hv->supports(spec_);
  }
  // Without a GPU the CPU-only policy's rung, as in a CPU-only build.
  std::string api_pick(bool gpu) const override {
    return gpu ? histogram_default_variant(spec_.dtype, spec_.bins, spec_.n)
               : std::string(histogram_impl::policy::CPU_RULES[0].variant);
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<HistogramInstance>(*this, *histogram_impl::variants_ladder().find(v.name));
  }

  const HistogramSpec& spec() const { return spec_; }
  const void* host_input() const { return input_.data(); }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_input_.data(); }
#endif

  // Every bin, the guard words after them, and the out-of-range count with
  // its guard word.
  CheckResult compare(const std::vector<std::uint32_t>& counts, const std::uint32_t (&oor)[2]) const {
    CheckResult r;
    std::size_t wrong = 0;
    std::string first;
    for (std::size_t b = 0; b < expected_.size(); ++b) {
      if (counts[b] == expected_[b]) continue;
      const double err = std::fabs(double(counts[b]) - double(expected_[b])) / std::max(1.0, double(expected_[b]));
      r.max_rel_err = std::max(r.max_rel_err, err);
      if (wrong++ < 3)
        first += fmt::format("{}bin {}: got {}, expected {}", first.empty() ? "" : "; ", b, counts[b], expected_[b]);
    }
    for (std::size_t g = 0; g < GUARD_WORDS; ++g)
      if (counts[expected_.size() + g] != POISON_WORD) {
        first += fmt::format("{}wrote past the last bin (word {} after it)", first.empty() ? "" : "; ", g);
        ++wrong;
        break;
      }
    if (oor[0] != expected_oor_) {
      first += fmt::format("{}out_of_range: got {}, expected {}", first.empty() ? "" : "; ", oor[0], expected_oor_);
      ++wrong;
    }
    if (oor[1] != POISON_WORD) {
      first += fmt::format("{}wrote past out_of_range", first.empty() ? "" : "; ");
      ++wrong;
    }
    r.ok = wrong == 0;
    if (!r.ok) {
      r.detail = fmt::format("{} wrong: {}", wrong, first);
      if (r.max_rel_err == 0) r.max_rel_err = 1;
    }
    return r;
  }

 private:
  HistogramSpec spec_;
  bool gpu_;
  bool skip_global_;
  ProblemDesc desc_;
  std::vector<std::uint8_t> input_;
  std::vector<std::uint32_t> expected_;
  std::uint32_t expected_oor_ = 0;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_input_;
#endif
};

HistogramInstance::HistogramInstance(const HistogramProblem& p, const HistogramVariant& v)
    : BoundInstance(p, v) {
  const std::size_t ws = v.workspace_bytes(p.spec());
  const std::size_t words = static_cast<std::size_t>(p.spec().bins) + GUARD_WORDS;
  if (on_host()) {
    host_ws_.resize(ws);
    host_counts_.resize(words);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_ws_ = DeviceBytes(ws, "histogram workspace");
  dev_counts_ = DeviceBuffer<std::uint32_t>(words, "histogram counts");
  dev_oor_ = DeviceBuffer<std::uint32_t>(2, "histogram out_of_range");
#endif
}

void HistogramInstance::run(stream_t stream) {
  const auto& spec = problem_.spec();
  if (on_host()) {
    variant_.run({spec, problem_.host_input(), host_counts_.data(), host_oor_, host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_input(), dev_counts_.data(), dev_oor_.data(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult HistogramInstance::check(stream_t stream) {
  const std::size_t words = static_cast<std::size_t>(problem_.spec().bins) + GUARD_WORDS;
  std::vector<std::uint32_t> counts(words);
  std::uint32_t oor[2] = {};
  if (on_host()) {
    std::memset(host_counts_.data(), POISON_BYTE, words * sizeof(std::uint32_t));
    std::memset(host_oor_, POISON_BYTE, sizeof host_oor_);
    std::memset(host_ws_.data(), POISON_BYTE, host_ws_.size());
    run(stream);
    counts = host_counts_;
    std::memcpy(oor, host_oor_, sizeof oor);
  } else {
#if TESSERA_HAVE_CUDA
    dev_counts_.fill_bytes(POISON_BYTE, stream);
    dev_oor_.fill_bytes(POISON_BYTE, stream);
    if (dev_ws_.bytes() > 0) dev_ws_.fill_bytes(POISON_BYTE, stream);
    run(stream);
    wait_for_run(stream);
    dev_counts_.download(counts.data(), words);
    dev_oor_.download(oor, 2);
#endif
  }
  return problem_.compare(counts, oor);
}

class HistogramPattern final : public Pattern {
 public:
  std::string_view name() const override { return "histogram"; }
  std::string_view size_meaning() const override { return "elements (bytes or floats)"; }

  std::vector<VariantInfo> variants() const override { return histogram_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (o.op || o.accum) return out;  // --op / --accum name reduce options: no histogram matches them
    const bool bytes = !o.type || *o.type == Dtype::u8;
    const bool floats = (!o.type || *o.type == Dtype::f32) && o.input.empty();  // --input: bytes only
    constexpr Distribution byte_dists[] = {Distribution::uniform, Distribution::skewed, Distribution::text,
                                           Distribution::constant};
    constexpr Distribution float_dists[] = {Distribution::uniform, Distribution::skewed, Distribution::constant};
    if (bytes) {
      std::vector<std::size_t> sizes;
      if (o.size) sizes = {*o.size};
      else if (o.quick) sizes.assign(std::begin(QUICK_BYTE_SIZES), std::end(QUICK_BYTE_SIZES));
      else sizes.assign(std::begin(BYTE_SIZES), std::end(BYTE_SIZES));
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        const Source src{byte_dists[i % 4], o.input, false};
        out.push_back(factory(byte_spec(sizes[i]), src, o.seed + i, o.gpu, false));
        // Uniform and skewed at every size too: contention is where bugs hide.
        if (o.input.empty() && !o.quick && i % 4 != 1)
          out.push_back(factory(byte_spec(sizes[i]), {Distribution::skewed, "", false}, o.seed + 100 + i, o.gpu, false));
      }
      if (o.large) out.push_back(factory(byte_spec(LARGE_N), {Distribution::uniform, o.input, false}, o.seed, o.gpu, false));
    }
    if (floats) {
      std::vector<std::size_t> sizes;
      if (o.size) sizes = {*o.size};
      else if (o.quick) sizes.assign(std::begin(QUICK_FLOAT_SIZES), std::end(QUICK_FLOAT_SIZES));
      else sizes.assign(std::begin(FLOAT_SIZES), std::end(FLOAT_SIZES));
      std::size_t k = 0;
      for (const FloatBins& fb : VERIFY_FLOAT_BINS) {
        if (o.quick && fb.bins != 64 && fb.bins != 4096) continue;
        for (std::size_t n : sizes) {
          const Source src{float_dists[k % 3], "", true};
          out.push_back(factory(float_spec(n, fb.bins, fb.lo, fb.hi), src, o.seed + 1000 + k, o.gpu, false));
          ++k;
        }
      }
    }
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (o.op || o.accum) return out;
    const bool bytes = !o.type || *o.type == Dtype::u8;
    const bool floats = (!o.type || *o.type == Dtype::f32) && o.input.empty();
    const std::size_t nb = o.size.value_or(o.gpu ? GPU_BYTES_N : CPU_BYTES_N);
    const std::size_t nf = o.size.value_or(o.gpu ? GPU_FLOATS_N : CPU_FLOATS_N);
    if (!o.input.empty()) {  // the user's bytes: the whole ladder
      if (bytes) out.push_back(factory(byte_spec(nb), {Distribution::uniform, o.input, false}, o.seed, o.gpu, false));
      return out;
    }
    if (o.headline) {
      // 256 bins over 2^30 bytes, uniform and skewed. The global-atomic rungs
      // (step 2) are left out here: on skewed bytes 80% of 2^30 atomics hit
      // one L2 address (seconds a run); `tessera bench histogram` runs them.
      for (Distribution d : {Distribution::uniform, Distribution::skewed})
        out.push_back(factory(byte_spec(nb), {d, "", false}, o.seed, o.gpu, true));
      return out;
    }
    if (bytes)
      for (Distribution d : {Distribution::uniform, Distribution::skewed, Distribution::text})
        out.push_back(factory(byte_spec(nb), {d, "", false}, o.seed, o.gpu, false));
    if (floats) {
      for (int bins : {64, 1024, 4096})
        out.push_back(factory(float_spec(nf, bins, BENCH_LO, BENCH_HI), {Distribution::uniform, "", false}, o.seed,
                              o.gpu, false));
      out.push_back(factory(float_spec(nf, 1024, BENCH_LO, BENCH_HI), {Distribution::skewed, "", false}, o.seed, o.gpu,
                            false));
    }
    return out;
  }

 private:
  static HistogramSpec byte_spec(std::size_t n) { return {Dtype::u8, n, histogram_impl::BYTE_BINS, 0.0f, 0.0f}; }
  static HistogramSpec float_spec(std::size_t n, int bins, float lo, float hi) { return {Dtype::f32, n, bins, lo, hi}; }

  static ProblemFactory factory(const HistogramSpec& s, const Source& src, std::uint64_t seed, bool gpu,
                                bool skip_global) {
    // The input on the host and, with a GPU, its copy on the device; the
    // counts are small.
    const double input = double(s.n) * double(size_of(s.dtype));
    return {fmt::format("{} {}", histogram_impl::describe(s), source_name(src)),
            [=] { return std::make_unique<HistogramProblem>(s, src, seed, gpu, skip_global); },
            {.host_bytes = input, .device_bytes = gpu ? input : 0, .host_flops = double(s.n)}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_histogram_pattern() { return std::make_unique<HistogramPattern>(); }

}  // namespace tessera::harness
