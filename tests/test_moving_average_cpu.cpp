// The moving_average ladder without a GPU: the table, the CPU rungs against
// an independent direct sum (edge rules, odd n, w = 1, w = n, box and
// general weights, float and double), the public API's argument checks
// (before any CUDA call, so they run in every build), the policy, and the
// harness loops on the pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/gpu_present.hpp"
#include "families/moving_average/contract.hpp"
#include "families/moving_average/cpu_rungs.hpp"
#include "families/moving_average/policy.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "tessera/core/error.hpp"
#include "tessera/moving_average.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using moving_average_impl::MovingAverageSpec;
using tessera_test::error_message;
using tessera_test::has_substr;

template <class T>
std::vector<T> random_samples(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.5);  // mean 0.25: never all zero, prefixes grow
  std::vector<T> x(n);
  for (auto& v : x) v = static_cast<T>(u(rng));
  return x;
}

template <class T>
std::vector<T> random_weights(std::size_t w, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 1.0);
  std::vector<T> k(w);
  for (auto& v : k) v = static_cast<T>(u(rng) / double(w));
  return k;
}

// The definition, written independently of the rungs: long double, explicit edges.
template <class T>
long double expected(const std::vector<T>& x, const std::vector<T>& k, Edge edge, std::size_t i) {
  const auto n = static_cast<long long>(x.size());
  const long long h = static_cast<long long>(k.size() / 2);
  long double s = 0;
  for (std::size_t j = 0; j < k.size(); ++j) {
    long long g = static_cast<long long>(i) + static_cast<long long>(j) - h;
    if (g < 0 || g >= n) {
      if (edge == Edge::zero) continue;
      g = g < 0 ? 0 : n - 1;
    }
    s += static_cast<long double>(k[j]) * static_cast<long double>(x[g]);
  }
  return s;
}

// Every output within a few units of the output type's rounding of the
// window's absolute sum, plus the double accumulation's w roundings (the
// rungs accumulate in double).
template <class T>
::testing::AssertionResult matches_definition(const std::vector<T>& x, const std::vector<T>& k, Edge edge,
                                              const std::vector<T>& got) {
  const long double eps = std::is_same_v<T, float> ? 0x1.0p-24L : 0x1.0p-53L;
  const long double acc = (16.0L + static_cast<long double>(k.size())) * 0x1.0p-53L;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double ref = expected(x, k, edge, i);
    long double mag = 0;
    for (std::size_t j = 0; j < k.size(); ++j) mag += std::fabs(static_cast<long double>(k[j]));
    mag *= 1.5L;  // |x| < 1.5
    const long double err = std::fabs(static_cast<long double>(got[i]) - ref);
    if (!(err <= 2 * eps * mag + acc * mag))
      return ::testing::AssertionFailure() << "out[" << i << "] = " << got[i] << ", expected " << double(ref)
                                           << " (n = " << x.size() << ", w = " << k.size() << ")";
  }
  return ::testing::AssertionSuccess();
}

// ---- the table -----------------------------------------------------------------

TEST(MovingAverageTable, LadderContract) {
  const auto all = moving_average_impl::variants_ladder().all();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all[0].info.name, "cpu_reference");
  EXPECT_EQ(all[1].info.name, "cpu_openmp");
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_TRUE(names.insert(all[i].info.name).second) << all[i].info.name;
    EXPECT_EQ(all[i].info.pattern, "moving_average");
    EXPECT_GT(all[i].info.adds.size(), 40u) << all[i].info.name;
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, all[i].info.step);
    }
  }
  // Every name the policy can return is a row of the table (in a CUDA build).
  for (std::size_t w : {std::size_t(3), std::size_t(47), std::size_t(48), std::size_t(1001), std::size_t(9001),
                        std::size_t(20001)})
    for (bool uniform : {true, false}) {
#if TESSERA_HAVE_CUDA
      const auto pick = moving_average_impl::policy::pick(true, w, uniform);
      if (!pick.empty()) {
        EXPECT_NE(moving_average_impl::variants_ladder().find(pick), nullptr) << pick;
      }
#endif
      EXPECT_EQ(moving_average_impl::policy::pick(false, w, uniform), "cpu_openmp");
    }
  EXPECT_EQ(moving_average_impl::policy::pick(true, 3, true), "shared_window");
  EXPECT_EQ(moving_average_impl::policy::pick(true, 1001, true), "running_sum_tiled");
  EXPECT_EQ(moving_average_impl::policy::pick(true, 15, true), "shared_window");     // measured 0.759 vs 0.818 ms
  EXPECT_EQ(moving_average_impl::policy::pick(true, 47, true), "running_sum_tiled");  // measured 0.819 vs 1.047 ms
  EXPECT_EQ(moving_average_impl::policy::pick(true, 1001, false), "shared_window");
  EXPECT_EQ(moving_average_impl::policy::pick(true, 20001, false), "");
}

// ---- the CPU rungs against the definition -----------------------------------------

template <class T>
void run_rung(std::string_view name, const std::vector<T>& x, const std::vector<T>& k, Edge edge,
              std::vector<T>& out) {
  const auto& v = moving_average_impl::variants_ladder().at(name, "test");
  bool uniform = true;
  for (const T& c : k) uniform = uniform && c == k[0];
  const MovingAverageSpec spec{dtype_of<T>(), x.size(), k.size(), edge, uniform};
  ASSERT_TRUE(v.supports(spec));
  out.assign(x.size(), std::numeric_limits<T>::quiet_NaN());
  v.run({spec, x.data(), out.data(), k.data(), nullptr, nullptr});
}

template <class T>
void check_cpu_rungs() {
  const std::size_t ns[] = {1, 2, 3, 7, 64, 255, 4097, 10007};
  const std::size_t ws[] = {1, 3, 5, 31, 65, 201, 1001};
  unsigned seed = 1;
  for (std::size_t n : ns)
    for (std::size_t w : ws) {
      if (w > n) continue;
      for (Edge edge : {Edge::zero, Edge::clamp})
        for (bool box : {true, false}) {
          const auto x = random_samples<T>(n, ++seed);
          const auto k = box ? std::vector<T>(w, T(1) / T(w)) : random_weights<T>(w, ++seed);
          for (const char* rung : {"cpu_reference", "cpu_openmp"}) {
            std::vector<T> out;
            run_rung<T>(rung, x, k, edge, out);
            EXPECT_TRUE(matches_definition(x, k, edge, out))
                << rung << (box ? " box" : " weighted") << (edge == Edge::zero ? " zero" : " clamp");
          }
        }
    }
}

TEST(MovingAverageCpu, RungsMatchTheDefinitionFloat) { check_cpu_rungs<float>(); }
TEST(MovingAverageCpu, RungsMatchTheDefinitionDouble) { check_cpu_rungs<double>(); }

// The harness checks every variant against window_sums_f64, so its own error
// must sit far below theirs: within a few double ulps of the window's
// absolute sum, for the compensated sliding box (over many 4096-output
// chunks and both edges; an uncompensated slide drifts ~30 ulps) and the
// vectorised direct form, on float and double samples.
template <class T>
void check_reference_sums() {
  const std::size_t n = 20011;
  const auto x = random_samples<T>(n, 101);
  for (std::size_t w : {std::size_t(3), std::size_t(31), std::size_t(65), std::size_t(1001)})
    for (bool box : {true, false})
      for (Edge edge : {Edge::zero, Edge::clamp}) {
        const auto k = box ? std::vector<T>(w, T(1) / T(w)) : random_weights<T>(w, unsigned(w));
        const MovingAverageSpec spec{dtype_of<T>(), n, w, edge, box};
        std::vector<double> sums(n), abs_sums(n);
        moving_average_impl::cpu::window_sums_f64(x.data(), spec, k.data(), false, 0, n, sums.data());
        moving_average_impl::cpu::window_sums_f64(x.data(), spec, k.data(), true, 0, n, abs_sums.data());
        // Direct double sums round w times (typically ~sqrt(w) ulps); the
        // slide ~2 ulps whatever the window.
        const bool slides = box && w >= moving_average_impl::cpu::SLIDE_MIN_W;
        const long double ulps = slides ? 4.0L : 2.0L + static_cast<long double>(w);
        for (std::size_t i = 0; i < n; ++i) {
          const long double exact = expected(x, k, edge, i);
          long double mag = 0;
          const long long h = static_cast<long long>(w / 2), nn = static_cast<long long>(n);
          for (std::size_t j = 0; j < w; ++j) {
            const long long g = std::clamp(static_cast<long long>(i) + static_cast<long long>(j) - h, -1LL, nn);
            const T v = g < 0 ? (edge == Edge::zero ? T(0) : x[0]) : g >= nn ? (edge == Edge::zero ? T(0) : x[n - 1]) : x[g];
            mag += std::fabs(static_cast<long double>(k[j]) * static_cast<long double>(v));
          }
          const long double tol = ulps * 0x1.0p-53L * mag;
          ASSERT_LE(std::fabs(static_cast<long double>(sums[i]) - exact), tol)
              << "sum " << i << " w = " << w << (box ? " box" : " weighted");
          ASSERT_LE(std::fabs(static_cast<long double>(abs_sums[i]) - mag), tol)
              << "absolute sum " << i << " w = " << w << (box ? " box" : " weighted");
        }
      }
}

TEST(MovingAverageCpu, ReferenceSumsWithinAFewDoubleUlps) {
  check_reference_sums<float>();
  check_reference_sums<double>();
}

TEST(MovingAverageCpu, WidthOneIsTheIdentityTimesTheWeight) {
  const auto x = random_samples<float>(1001, 7);
  std::vector<float> out(x.size());
  tessera::moving_average(x.data(), x.size(), out.data(), std::span<const float>(std::vector<float>{1.0f}),
                          {.variant = "cpu_openmp"});
  EXPECT_EQ(out, x);
  const std::vector<float> two{2.0f};
  tessera::moving_average(x.data(), x.size(), out.data(), std::span<const float>(two), {.variant = "cpu_reference"});
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(out[i], 2.0f * x[i]) << i;
}

TEST(MovingAverageCpu, EdgeRulesDifferOnlyNearTheEnds) {
  const std::size_t n = 1000, w = 31, h = w / 2;
  const auto x = random_samples<double>(n, 11);
  const std::vector<double> k(w, 1.0 / double(w));
  std::vector<double> zero(n), clamp(n);
  tessera::moving_average(x.data(), n, zero.data(), std::span<const double>(k), {.edge = Edge::zero, .variant = "cpu_openmp"});
  tessera::moving_average(x.data(), n, clamp.data(), std::span<const double>(k), {.edge = Edge::clamp, .variant = "cpu_openmp"});
  for (std::size_t i = h; i + h < n; ++i) EXPECT_NEAR(zero[i], clamp[i], 1e-14) << i;
  // out[0] under clamp: h copies of x[0] more than under zero.
  EXPECT_NEAR(clamp[0] - zero[0], double(h) * x[0] / double(w), 1e-14);
  EXPECT_NEAR(clamp[n - 1] - zero[n - 1], double(h) * x[n - 1] / double(w), 1e-14);
}

TEST(MovingAverageCpu, WindowAsWideAsTheInput) {
  for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(1001)}) {
    const auto x = random_samples<float>(n, unsigned(n));
    const auto k = random_weights<float>(n, unsigned(n) + 1);
    std::vector<float> out(n);
    tessera::moving_average(x.data(), n, out.data(), std::span<const float>(k),
                            {.edge = Edge::clamp, .variant = "cpu_openmp"});
    EXPECT_TRUE(matches_definition(x, k, Edge::clamp, out));
  }
}

// The API's default on a machine without a GPU (a CPU-only build, or none
// found) is the OpenMP rung, on host pointers.
TEST(MovingAverageCpu, DefaultCallWithoutGpu) {
  if (api::gpu_present()) GTEST_SKIP() << "a GPU is present";
  const auto x = random_samples<float>(5003, 3);
  const std::vector<float> k(1001, 1.0f / 1001);
  std::vector<float> out(x.size());
  tessera::moving_average(x.data(), x.size(), out.data(), std::span<const float>(k));
  EXPECT_TRUE(matches_definition(x, k, Edge::zero, out));
  EXPECT_EQ(moving_average_default_variant(Dtype::f32, x.size(), 1001, true), "cpu_openmp");
  EXPECT_EQ(moving_average_workspace_bytes<float>(x.size(), 1001, true), 0u);
}

// ---- bad input --------------------------------------------------------------------

TEST(MovingAverageApi, BadInputIsRefusedNamingTheArgument) {
  const auto x = random_samples<float>(100, 5);
  std::vector<float> out(100, 7.0f);
  const std::vector<float> k3(3, 1.0f / 3), k4(4, 0.25f), empty;
  const MovingAverageOptions cpu{.variant = "cpu_openmp"};
  auto call = [&](const float* in, std::size_t n, float* o, const std::vector<float>& k,
                  const MovingAverageOptions& opt) {
    return error_message([&] { tessera::moving_average(in, n, o, std::span<const float>(k), opt); });
  };
  EXPECT_TRUE(has_substr(call(x.data(), 100, out.data(), k4, cpu), "w = 4 is even"));
  EXPECT_TRUE(has_substr(call(x.data(), 100, out.data(), empty, cpu), "w = 0"));
  EXPECT_TRUE(has_substr(call(x.data(), 2, out.data(), k3, cpu), "w = 3 is wider than the input (n = 2)"));
  EXPECT_TRUE(has_substr(call(x.data(), 0, out.data(), k3, cpu), "w = 3 is wider than the input (n = 0)"));
  EXPECT_TRUE(has_substr(call(nullptr, 100, out.data(), k3, cpu), "in is a null pointer (n = 100)"));
  EXPECT_TRUE(has_substr(call(x.data(), 100, nullptr, k3, cpu), "out is a null pointer (n = 100)"));
  std::vector<float> nan_k = k3;
  nan_k[1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(has_substr(call(x.data(), 100, out.data(), nan_k, cpu), "weights[1] = nan is not a finite number"));
  nan_k[1] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(has_substr(call(x.data(), 100, out.data(), nan_k, cpu), "weights[1] = inf"));
  // In place, and a partial overlap.
  std::vector<float> buf = x;
  EXPECT_TRUE(has_substr(call(buf.data(), 100, buf.data(), k3, cpu), "overlap"));
  EXPECT_TRUE(has_substr(call(buf.data(), 50, buf.data() + 10, k3, cpu), "not in place"));
  EXPECT_TRUE(has_substr(call(x.data(), 100, out.data(), k3, {.variant = "no_such"}), "no variant named 'no_such'"));
  // A general window on a running-sum variant: it takes boxes only.
  const std::vector<float> k3w{0.25f, 0.5f, 0.25f};
  EXPECT_TRUE(has_substr(call(x.data(), 100, out.data(), k3w, {.variant = "running_sum_tiled"}),
                         moving_average_impl::variants_ladder().find("running_sum_tiled") ? "does not support"
                                                                                          : "no variant named"));
  // Nothing was written by any refused call.
  for (float v : out) EXPECT_EQ(v, 7.0f);
  EXPECT_TRUE(has_substr(error_message([] { (void)moving_average_workspace_bytes<float>(10, 12, true); }),
                         "w = 12 is even"));
}

// ---- the harness on the pattern ----------------------------------------------------

harness::RunOptions cpu_run(bool quick) {
  harness::RunOptions o;
  o.gpu = false;
  o.quick = quick;
  o.seed = 9;
  return o;
}

TEST(MovingAverageHarness, VerifyPassesAndCoversTheEdges) {
  std::ostringstream out;
  harness::DeviceInfo dev;
  const auto report = harness::run_verify(harness::parse_selector("moving_average"), cpu_run(true), dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  EXPECT_GT(report.results.size(), 10u);
  std::set<std::string> labels;
  for (const auto& f : find_pattern("moving_average")->verify_problems(cpu_run(false))) labels.insert(f.label);
  auto has_prefix = [&](std::string_view prefix) {
    for (const auto& l : labels)
      if (l.rfind(prefix, 0) == 0) return true;
    return false;
  };
  for (const char* want : {"float n=1 w=1 box", "float n=4097 w=4097 box", "float n=4097 w=4097 weighted",
                           "float n=1000003 w=1001 weighted", "float n=254 w=3 1/4 1/2 1/4"})
    EXPECT_TRUE(has_prefix(want)) << want;
  // The CPU rungs accumulate in double: within a few float roundings.
  for (const auto& r : report.results) EXPECT_LE(r.max_rel_err, 1e-6) << r.problem.label << " " << r.variant.name;
}

TEST(MovingAverageHarness, BenchRunsTheCpuRungs) {
  std::ostringstream out;
  harness::DeviceInfo dev;
  dev.host_copy_gbps = 10.0;
  auto opt = cpu_run(false);
  opt.size = 5001;
  const auto report = harness::run_bench(harness::parse_selector("moving_average"), opt, dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  std::set<std::string> problems;
  for (const auto& r : report.results) {
    problems.insert(r.problem.label);
    EXPECT_TRUE(r.verified) << r.problem.label << " " << r.variant.name << ": " << r.error;
  }
  EXPECT_TRUE(problems.count("float n=5001 w=1001 box zero")) << out.str();
  EXPECT_TRUE(problems.count("float n=5001 w=31 weighted zero")) << out.str();
}

}  // namespace
