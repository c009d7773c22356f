// The histogram registry, the bin rule, the CPU rungs (host pointers) and the
// harness problems, checked against the independent reference of
// histogram_test_support.hpp; the public API's argument checks (which run
// before any memory is touched, in every build); in CPU-only builds the
// public API itself.
#include <gtest/gtest.h>
#include <omp.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "families/histogram/bins.hpp"
#include "harness/registry.hpp"
#include "harness/generate.hpp"
#include "histogram_test_support.hpp"
#include "families/histogram/contract.hpp"
#include "families/histogram/policy.hpp"
#include "test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/histogram.hpp"

namespace {

using namespace tessera;
using harness::Distribution;
using histogram_impl::EvenBins;
using histogram_impl::HistogramCall;
using histogram_impl::HistogramSpec;
using histogram_impl::HistogramVariant;

// The build's own policy: the GPU's rules in CUDA builds (a default call
// takes them where there is a GPU; tests/test_host_calls.cpp covers none).
std::string build_pick(Dtype type, int bins, std::size_t n) {
  return tessera::histogram_impl::policy::pick(type, bins, n, TESSERA_HAVE_CUDA);
}

constexpr std::size_t kSizes[] = {0, 1, 2, 15, 16, 17, 31, 127, 128, 129, 255, 257, 1000, 4097, 65537, 1000003};
constexpr std::uint32_t kPoison = 0xA5A5A5A5u;

HistogramSpec byte_spec(std::size_t n) { return {Dtype::u8, n, 256, 0.0f, 0.0f}; }
HistogramSpec float_spec(std::size_t n, int bins, float lo, float hi) { return {Dtype::f32, n, bins, lo, hi}; }

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

std::vector<HistogramVariant> cpu_rungs() {
  std::vector<HistogramVariant> out;
  for (const auto& v : histogram_impl::variants_ladder().all())
    if (v.info.backend == Backend::cpu) out.push_back(v);
  return out;
}

// ---- registry --------------------------------------------------------------

TEST(HistogramRegistry, EveryVariantIsWellFormed) {
  const auto all = histogram_impl::variants_ladder().all();
  ASSERT_FALSE(all.empty());
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    SCOPED_TRACE(std::string(v.info.name));
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate variant name";
    EXPECT_EQ(v.info.pattern, "histogram");
    EXPECT_FALSE(v.info.adds.empty());
    EXPECT_TRUE(v.info.deterministic) << "integer counts are the same every run";
    EXPECT_NE(v.supports, nullptr);
    EXPECT_NE(v.workspace_bytes, nullptr);
    EXPECT_NE(v.run, nullptr);
    for (char ch : v.info.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, v.info.step) << "ladder order";
    }
    EXPECT_EQ(histogram_impl::variants_ladder().find(v.info.name), &v);
  }
  EXPECT_EQ(histogram_impl::variants_ladder().find("no_such"), nullptr);
  EXPECT_EQ(all.front().info.name, "cpu_reference");
  EXPECT_EQ(all.front().info.step, 0);
}

TEST(HistogramRegistry, LadderHasEveryRungInCudaBuilds) {
#if TESSERA_HAVE_CUDA
  std::set<int> steps;
  int tessera_kind = 0, vendor = 0;
  for (const auto& v : histogram_impl::variants_ladder().all()) {
    steps.insert(v.info.step);
    tessera_kind += v.info.kind() == Kind::tessera;
    vendor += v.info.kind() == Kind::vendor;
  }
  EXPECT_EQ(steps, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_GE(tessera_kind, 2);
  EXPECT_EQ(vendor, 1);
  // Step 2 has both mappings, step 4 both group sizes.
  EXPECT_NE(histogram_impl::variants_ladder().find("global_contiguous"), nullptr);
  EXPECT_NE(histogram_impl::variants_ladder().find("global_interleaved"), nullptr);
  EXPECT_NE(histogram_impl::variants_ladder().find("copy_per_warp"), nullptr);
  EXPECT_NE(histogram_impl::variants_ladder().find("copy_per_8_threads"), nullptr);
#else
  for (const auto& v : histogram_impl::variants_ladder().all()) EXPECT_EQ(v.info.backend, Backend::cpu) << v.info.name;
#endif
}

TEST(HistogramRegistry, SupportDoesNotDependOnN) {
  for (const auto& v : histogram_impl::variants_ladder().all())
    for (HistogramSpec s : {byte_spec(1000), float_spec(1000, 64, 0.0f, 1.0f), float_spec(1000, 4096, 0.0f, 1.0f),
                            float_spec(1000, 1 << 20, 0.0f, 1.0f)}) {
      const bool at_1000 = v.supports(s);
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1) << 31, histogram_impl::MAX_N}) {
        s.n = n;
        EXPECT_EQ(v.supports(s), at_1000) << v.info.name << " " << histogram_impl::describe(s);
      }
    }
}

TEST(HistogramRegistry, EveryBinCountHasACudaVariantAndTheReferenceTakesAll) {
  for (int bins : {1, 2, 64, 255, 256, 1000, 4096, 65536, histogram_impl::MAX_BINS}) {
    const HistogramSpec s = float_spec(100, bins, 0.0f, 1.0f);
    EXPECT_TRUE(histogram_impl::variants_ladder().find("cpu_reference")->supports(s));
    EXPECT_TRUE(histogram_impl::variants_ladder().find("cpu_openmp")->supports(s));
#if TESSERA_HAVE_CUDA
    int cuda = 0;
    for (const auto& v : histogram_impl::variants_ladder().all()) cuda += v.info.backend == Backend::cuda && v.supports(s);
    EXPECT_GE(cuda, 2) << bins << " bins: the global-atomic rungs take any bin count";
    const std::string best = build_pick(Dtype::f32, bins, 100);
    EXPECT_TRUE(histogram_impl::variants_ladder().find(best)->supports(s)) << best << " for " << bins << " bins";
#endif
  }
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(build_pick(Dtype::u8, 256, 1 << 30), "packed16_atomic");
  EXPECT_EQ(build_pick(Dtype::f32, 64, 1 << 28), "packed16_atomic");
  EXPECT_EQ(build_pick(Dtype::f32, 4096, 1 << 28), "hot_bin_copies");
  EXPECT_EQ(build_pick(Dtype::f32, 1 << 20, 1 << 28), "global_interleaved");
  // The shared-memory rungs decline bin counts their copies cannot hold.
  EXPECT_FALSE(histogram_impl::variants_ladder().find("copy_per_8_threads")->supports(float_spec(10, 4096, 0.0f, 1.0f)));
  EXPECT_TRUE(histogram_impl::variants_ladder().find("copy_per_warp")->supports(float_spec(10, 4096, 0.0f, 1.0f)));
  // CUB declines a range whose top edge rounds past the last bin.
  EXPECT_FALSE(histogram_impl::variants_ladder().find("cub_histogram_even")->supports(float_spec(10, 64, -1.0f, 1.0f)));
  EXPECT_TRUE(histogram_impl::variants_ladder().find("cub_histogram_even")->supports(float_spec(10, 64, -0.5f, 1.5f)));
#endif
}

// The product ladder: no tuning row (those are the lab's); every product row
// is one the policy may pick, and every variant the policy names is a
// product row or the seed's global-atomic fallback.
TEST(HistogramRegistry, RolesMatchThePolicy) {
  std::set<std::string> picks;
  for (int bins : {1, 64, 256, 257, 1024, 4096, 40960, 40961, histogram_impl::MAX_BINS})
    picks.insert(build_pick(Dtype::f32, bins, 1000));
  picks.insert(build_pick(Dtype::u8, 256, 1000));
  for (const auto& v : histogram_impl::variants_ladder().all()) {
    EXPECT_NE(v.info.role, Role::tuning) << v.info.name << ": tuning rows live in the lab";
    if (v.info.role == Role::product) {
      EXPECT_TRUE(picks.count(std::string(v.info.name))) << v.info.name;
    }
  }
  for (const std::string& name : picks) {
    const auto* v = histogram_impl::variants_ladder().find(name);
    ASSERT_NE(v, nullptr) << name;
#if TESSERA_HAVE_CUDA
    EXPECT_TRUE(v->info.role == Role::product || name == "global_interleaved") << name;
#else
    EXPECT_EQ(name, "cpu_openmp");
#endif
  }
}

TEST(HistogramApiWorkspace, QueryNamesTheVariantAndChecksTheBins) {
#if TESSERA_HAVE_CUDA
  // The out-of-range word at least (CUB's temporary storage on top: its
  // query needs a device, tests/test_histogram_gpu.cpp).
  EXPECT_GE(histogram_workspace_bytes(1000, {.variant = "packed16_atomic"}), sizeof(std::uint32_t));
  EXPECT_GE(histogram_even_workspace_bytes(1000, {.bins = 4096, .variant = "hot_bin_copies"}), sizeof(std::uint32_t));
  EXPECT_EQ(histogram_workspace_bytes(1000, {.variant = "cpu_openmp"}), 0u);
#else
  EXPECT_EQ(histogram_workspace_bytes(1000), 0u);
  EXPECT_EQ(histogram_even_workspace_bytes(1000, {.bins = 4096}), 0u);
#endif
  std::string msg = tessera_test::error_message([] { (void)histogram_workspace_bytes(10, {.variant = "no_such"}); });
  EXPECT_TRUE(contains(msg, "no variant named 'no_such'")) << msg;
  msg = tessera_test::error_message([] { (void)histogram_even_workspace_bytes(10, {.bins = 0}); });
  EXPECT_TRUE(contains(msg, "bins = 0")) << msg;
}

// ---- the bin rule ----------------------------------------------------------

TEST(HistogramBins, EdgesNanAndInfinities) {
  const EvenBins r = EvenBins::make(64, -0.5f, 1.5f);
  EXPECT_EQ(r.bin(-0.5f), 0);
  EXPECT_EQ(r.bin(1.5f), -1) << "hi is excluded";
  EXPECT_EQ(r.bin(std::nextafter(1.5f, 0.0f)), 63);
  EXPECT_EQ(r.bin(std::nextafter(-0.5f, -1.0f)), -1);
  EXPECT_EQ(r.bin(std::numeric_limits<float>::quiet_NaN()), -1);
  EXPECT_EQ(r.bin(std::numeric_limits<float>::infinity()), -1);
  EXPECT_EQ(r.bin(-std::numeric_limits<float>::infinity()), -1);
  EXPECT_EQ(r.bin(0.5f), 32);
  EXPECT_FALSE(r.top_edge_overflows());
  // Bin i's centre lands in bin i.
  for (int i = 0; i < 64; ++i) EXPECT_EQ(r.bin(-0.5f + (i + 0.5f) / 32.0f), i);
  const EvenBins zero = EvenBins::make(10, 0.0f, 1.0f);
  EXPECT_EQ(zero.bin(-0.0f), 0) << "-0 >= 0";
}

TEST(HistogramBins, TopEdgeClamp) {
  // x = 1 - 2^-24: x - (-1) = 2 - 2^-24 rounds (to even) to 2, times 32 = 64.
  const EvenBins r = EvenBins::make(64, -1.0f, 1.0f);
  const float x = std::nextafter(1.0f, 0.0f);
  EXPECT_EQ(r.raw_bin(x), 64);
  EXPECT_EQ(r.bin(x), 63);
  EXPECT_TRUE(r.top_edge_overflows());
  EXPECT_EQ(histogram_test::float_bin(x, 64, -1.0f, 1.0f), 63);
}

TEST(HistogramBins, MatchesTheIndependentRuleOnRandomValues) {
  for (auto [bins, lo, hi] : {std::tuple{64, -0.5f, 1.5f}, std::tuple{100, -2.0f, 6.0f}, std::tuple{1000, 0.1f, 0.7f},
                              std::tuple{4096, -1.0f, 1.0f}, std::tuple{1, -3.0f, 3.0f}, std::tuple{7, 1e-3f, 2e-3f}}) {
    const EvenBins r = EvenBins::make(bins, lo, hi);
    const auto x = histogram_test::floats_with_specials(100003, lo, hi, histogram_test::seed_for("rule", bins),
                                                        Distribution::uniform);
    int in_range = 0;
    for (float v : x) {
      const int b = r.bin(v);
      ASSERT_EQ(b, histogram_test::float_bin(v, bins, lo, hi)) << "x = " << v << ", " << bins << " bins [" << lo << ", " << hi << ")";
      ASSERT_GE(b, -1);
      ASSERT_LT(b, bins);
      in_range += b >= 0;
    }
    EXPECT_GT(in_range, 0);
  }
}

TEST(HistogramBins, RangeProblemsAreNamed) {
  EXPECT_EQ(histogram_impl::even_bins_problem(64, 0.0f, 1.0f), "");
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(0, 0.0f, 1.0f), "bins = 0"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(-3, 0.0f, 1.0f), "bins = -3"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(histogram_impl::MAX_BINS + 1, 0.0f, 1.0f), "bins"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(8, 1.0f, 1.0f), "empty or inverted"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(8, 2.0f, 1.0f), "empty or inverted"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(8, std::nanf(""), 1.0f), "finite"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(8, 0.0f, INFINITY), "finite"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(8, -3e38f, 3e38f), "overflows"));
  EXPECT_TRUE(contains(histogram_impl::even_bins_problem(1000000, 0.0f, 1e-38f), "finite float"));
}

// ---- CPU rungs -------------------------------------------------------------

struct HostRun {
  std::vector<std::uint32_t> counts;
  std::uint32_t out_of_range[2];
};

// Runs a CPU variant with poisoned counts (plus 8 guard words) and a poisoned
// out_of_range (plus one guard word); checks the guards.
HostRun run_cpu(const HistogramVariant& v, const HistogramSpec& s, const void* in) {
  HostRun r;
  r.counts.assign(static_cast<std::size_t>(s.bins) + 8, kPoison);
  r.out_of_range[0] = r.out_of_range[1] = kPoison;
  v.run(HistogramCall{s, in, r.counts.data(), r.out_of_range, nullptr, nullptr});
  for (std::size_t g = 0; g < 8; ++g) EXPECT_EQ(r.counts[s.bins + g], kPoison) << "wrote past the last bin";
  EXPECT_EQ(r.out_of_range[1], kPoison) << "wrote past out_of_range";
  return r;
}

TEST(HistogramCpu, BytesMatchTheReferenceAtEverySize) {
  for (const auto& v : cpu_rungs())
    for (Distribution d : {Distribution::uniform, Distribution::skewed, Distribution::text, Distribution::constant})
      for (std::size_t n : kSizes) {
        SCOPED_TRACE(::testing::Message() << v.info.name << " n=" << n << " " << harness::to_string(d));
        std::vector<std::uint8_t> x(n + 1);
        harness::fill_random(x.data(), n, histogram_test::seed_for("cpu bytes", n, static_cast<int>(d)), d);
        const HostRun r = run_cpu(v, byte_spec(n), x.data());
        EXPECT_TRUE(histogram_test::same_counts(r.counts.data(), r.out_of_range[0],
                                                histogram_test::expected_bytes(x.data(), n)));
        std::uint64_t total = 0;
        for (int b = 0; b < 256; ++b) total += r.counts[b];
        EXPECT_EQ(total, n) << "every byte counted once";
      }
}

TEST(HistogramCpu, FloatsMatchTheReferenceWithOutOfRangeAndNaN) {
  for (const auto& v : cpu_rungs())
    for (auto [bins, lo, hi] : {std::tuple{1, 0.0f, 1.0f}, std::tuple{64, -0.5f, 1.5f}, std::tuple{100, -2.0f, 6.0f},
                                std::tuple{4096, -1.0f, 1.0f}})
      for (Distribution d : {Distribution::uniform, Distribution::skewed})
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(4097), std::size_t(1000003)}) {
          SCOPED_TRACE(::testing::Message() << v.info.name << " " << bins << " bins n=" << n);
          const auto x = histogram_test::floats_with_specials(n, lo, hi, histogram_test::seed_for("cpu f", n, bins), d);
          const HostRun r = run_cpu(v, float_spec(n, bins, lo, hi), x.data());
          const auto e = histogram_test::expected_floats(x.data(), n, bins, lo, hi);
          EXPECT_TRUE(histogram_test::same_counts(r.counts.data(), r.out_of_range[0], e));
          std::uint64_t total = r.out_of_range[0];
          for (int b = 0; b < bins; ++b) total += r.counts[b];
          EXPECT_EQ(total, n);
          if (n >= 61) {
            EXPECT_GT(e.out_of_range, 0u) << "the specials include NaN and infinities";
          }
        }
}

TEST(HistogramCpu, AllNaNInputIsAllOutOfRange) {
  const std::vector<float> x(1000, std::numeric_limits<float>::quiet_NaN());
  for (const auto& v : cpu_rungs()) {
    const HostRun r = run_cpu(v, float_spec(x.size(), 16, 0.0f, 1.0f), x.data());
    EXPECT_EQ(r.out_of_range[0], 1000u) << v.info.name;
    for (int b = 0; b < 16; ++b) EXPECT_EQ(r.counts[b], 0u) << v.info.name << " bin " << b;
  }
}

TEST(HistogramCpu, OpenMPDoesNotDependOnTheThreadCount) {
  constexpr std::size_t n = 1000003;
  std::vector<std::uint8_t> x(n);
  harness::fill_random(x.data(), n, 7, Distribution::text);
  const auto e = histogram_test::expected_bytes(x.data(), n);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3, 7}) {
    omp_set_num_threads(threads);
    const HostRun r = run_cpu(*histogram_impl::variants_ladder().find("cpu_openmp"), byte_spec(n), x.data());
    EXPECT_TRUE(histogram_test::same_counts(r.counts.data(), r.out_of_range[0], e)) << threads << " threads";
  }
  omp_set_num_threads(saved);
}

// ---- harness problems ------------------------------------------------------

const harness::Pattern& histogram_pattern() {
  const harness::Pattern* p = find_pattern("histogram");
  EXPECT_NE(p, nullptr);
  return *p;
}

TEST(HistogramHarness, VerifyProblemsCoverTheEdgeSizesAndAllPass) {
  harness::RunOptions o;
  const auto problems = histogram_pattern().verify_problems(o);
  std::set<std::string> labels;
  for (const auto& f : problems) labels.insert(f.label);
  for (const char* want : {"uint8 256 bins n=15 ", "uint8 256 bins n=16 ", "uint8 256 bins n=17 ", "n=0 ",
                           "float 4096 bins [-1, 1)", "skewed", "text"}) {
    bool found = false;
    for (const auto& l : labels) found = found || contains(l, want);
    EXPECT_TRUE(found) << "no verify problem with '" << want << "'";
  }
  // The quick set (sanitizers) passes on the CPU rungs.
  o.quick = true;
  for (const auto& f : histogram_pattern().verify_problems(o)) {
    auto p = f.make();
    for (const auto& v : histogram_pattern().variants()) {
      if (!p->supports(v)) continue;
      auto inst = p->bind(v);
      const auto c = inst->check(nullptr);
      EXPECT_TRUE(c.ok) << f.label << " / " << v.name << ": " << c.detail;
    }
  }
}

TEST(HistogramHarness, BenchProblems) {
  harness::RunOptions o;
  o.headline = true;
  const auto headline = histogram_pattern().bench_problems(o);
  ASSERT_EQ(headline.size(), 2u);
  EXPECT_TRUE(contains(headline[0].label, "uniform"));
  EXPECT_TRUE(contains(headline[1].label, "skewed"));
  o.headline = false;
  const auto full = histogram_pattern().bench_problems(o);
  EXPECT_GE(full.size(), 6u);
  bool text = false, f1024 = false;
  for (const auto& f : full) {
    text = text || contains(f.label, "text");
    f1024 = f1024 || contains(f.label, "float 1024 bins");
  }
  EXPECT_TRUE(text);
  EXPECT_TRUE(f1024);
  o.op = Op::sum;  // a reduce filter: no histogram matches it
  EXPECT_TRUE(histogram_pattern().bench_problems(o).empty());
  EXPECT_TRUE(histogram_pattern().verify_problems(o).empty());
}

TEST(HistogramHarness, HeadlineLeavesOutTheGlobalAtomicRungs) {
  harness::RunOptions small;
  small.headline = true;
  small.size = 4096;
  auto p = histogram_pattern().bench_problems(small)[1].make();
  for (const auto& v : histogram_pattern().variants())
    if (v.step == 2) {
      EXPECT_FALSE(p->supports(v)) << v.name;
    }
  EXPECT_TRUE(p->supports(histogram_pattern().variants().front()));
}

TEST(HistogramHarness, InputFileBytesAreCounted) {
  const auto path = std::filesystem::temp_directory_path() / "tessera_histogram_input_test.txt";
  const std::string text = "the quick brown fox jumps over the lazy dog\n";
  {
    std::ofstream f(path, std::ios::binary);
    f << text;
  }
  harness::RunOptions o;
  o.input = path.string();
  o.size = 1000;
  const auto problems = histogram_pattern().bench_problems(o);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(contains(problems[0].label, "file tessera_histogram_input_test.txt"));
  auto p = problems[0].make();
  auto inst = p->bind(histogram_pattern().variants().front());
  EXPECT_TRUE(inst->check(nullptr).ok);
  // The same bytes, repeated: count them here.
  std::vector<std::uint8_t> bytes(1000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(text[i % text.size()]);
  const auto e = histogram_test::expected_bytes(bytes.data(), bytes.size());
  const HostRun r = run_cpu(*histogram_impl::variants_ladder().find("cpu_openmp"), byte_spec(1000), bytes.data());
  EXPECT_TRUE(histogram_test::same_counts(r.counts.data(), r.out_of_range[0], e));
  EXPECT_GT(e.counts[' '], 100u);
  // Verify problems use the file too, bytes only.
  for (const auto& f : histogram_pattern().verify_problems(o)) EXPECT_TRUE(contains(f.label, "file")) << f.label;
  std::filesystem::remove(path);
}

// ---- the public API's argument checks (every build; nothing is touched) -----

TEST(HistogramApiArguments, ErrorsNameTheArgumentAndWriteNothing) {
  std::vector<std::uint8_t> bytes(100, 3);
  std::vector<float> x(100, 0.5f);
  std::vector<std::uint32_t> counts(4096, 77u);
  std::uint32_t oor = 77u;
  auto untouched = [&] {
    for (auto c : counts)
      if (c != 77u) return false;
    return oor == 77u;
  };
  std::string msg = tessera_test::error_message([&] { histogram(nullptr, 10, counts.data()); });
  EXPECT_TRUE(contains(msg, "d_bytes") && contains(msg, "null") && contains(msg, "10")) << msg;
  msg = tessera_test::error_message([&] { histogram(bytes.data(), bytes.size(), nullptr); });
  EXPECT_TRUE(contains(msg, "d_counts")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(nullptr, 5, counts.data(), nullptr, {.bins = 8}); });
  EXPECT_TRUE(contains(msg, "d_x") && contains(msg, "null")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(x.data(), x.size(), counts.data(), &oor, {.bins = 0}); });
  EXPECT_TRUE(contains(msg, "bins = 0")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(x.data(), x.size(), counts.data(), &oor, {.bins = 8, .lo = 1.0f}); });
  EXPECT_TRUE(contains(msg, "empty or inverted")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(x.data(), x.size(), counts.data(), &oor, {.bins = 8, .lo = 2.0f, .hi = -1.0f}); });
  EXPECT_TRUE(contains(msg, "[2, -1)")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(x.data(), x.size(), counts.data(), &oor, {.bins = 8, .lo = std::nanf("")}); });
  EXPECT_TRUE(contains(msg, "nan")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(x.data(), x.size(), counts.data(), &oor, {.bins = 8, .hi = INFINITY}); });
  EXPECT_TRUE(contains(msg, "inf")) << msg;
  msg = tessera_test::error_message([&] { histogram(bytes.data(), histogram_impl::MAX_N + 1, counts.data()); });
  EXPECT_TRUE(contains(msg, "4294967296") && contains(msg, "2^32")) << msg;
  msg = tessera_test::error_message([&] {
    histogram_even(reinterpret_cast<const float*>(bytes.data() + 1), 4, counts.data(), &oor, {.bins = 8});
  });
  EXPECT_TRUE(contains(msg, "aligned")) << msg;
  msg = tessera_test::error_message([&] { histogram(bytes.data(), bytes.size(), reinterpret_cast<std::uint32_t*>(bytes.data() + 8)); });
  EXPECT_TRUE(contains(msg, "overlaps")) << msg;
  msg = tessera_test::error_message([&] { histogram_even(x.data(), x.size(), counts.data(), counts.data() + 3, {.bins = 8}); });
  EXPECT_TRUE(contains(msg, "out_of_range")) << msg;
  msg = tessera_test::error_message([&] { histogram(bytes.data(), bytes.size(), counts.data(), {.variant = "no_such_variant"}); });
  EXPECT_TRUE(contains(msg, "no_such_variant") && contains(msg, "packed16_atomic") == TESSERA_HAVE_CUDA) << msg;
  EXPECT_TRUE(untouched());
}

// ---- the public API in CPU-only builds (host pointers) -----------------------

#if !TESSERA_HAVE_CUDA

TEST(HistogramCpuOnlyApi, MatchesTheReference) {
  for (std::size_t n : {std::size_t(0), std::size_t(17), std::size_t(100003)}) {
    std::vector<std::uint8_t> bytes(n + 1);
    harness::fill_random(bytes.data(), n, 5, Distribution::text);
    std::vector<std::uint32_t> counts(256, kPoison);
    histogram(bytes.data(), n, counts.data());
    EXPECT_TRUE(histogram_test::same_counts(counts.data(), 0, histogram_test::expected_bytes(bytes.data(), n)));
    const auto x = histogram_test::floats_with_specials(n, -0.5f, 1.5f, 9, Distribution::uniform);
    std::vector<std::uint32_t> fc(64, kPoison);
    std::uint32_t oor = kPoison;
    histogram_even(x.data(), n, fc.data(), &oor, {.bins = 64, .lo = -0.5f, .hi = 1.5f, .variant = "cpu_reference"});
    EXPECT_TRUE(histogram_test::same_counts(fc.data(), oor, histogram_test::expected_floats(x.data(), n, 64, -0.5f, 1.5f)));
    histogram_even(x.data(), n, fc.data(), nullptr, {.bins = 64, .lo = -0.5f, .hi = 1.5f});  // out_of_range not wanted
  }
  EXPECT_EQ(build_pick(Dtype::u8, 256, 100), "cpu_openmp");
}

#endif

}  // namespace
