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
#include "families/moving_average/segmented_model.hpp"
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
      for (bool f32 : {true, false}) {
        const auto pick = moving_average_impl::policy::pick(true, f32, w, uniform);
        if (!pick.empty()) {
          const auto* v = moving_average_impl::variants_ladder().find(pick);
          ASSERT_NE(v, nullptr) << pick;
          EXPECT_TRUE(v->supports({f32 ? Dtype::f32 : Dtype::f64, 30000, w, Edge::zero, uniform})) << pick;
        }
      }
#endif
      EXPECT_EQ(moving_average_impl::policy::pick(false, true, w, uniform), "cpu_openmp");
    }
  using moving_average_impl::policy::pick;
  EXPECT_EQ(pick(true, true, 3, true), "shared_window");
  EXPECT_EQ(pick(true, true, 1001, true), "running_sum_segmented");  // H100: 95.8% of copy, max error 1.18e-7
  EXPECT_EQ(pick(true, false, 1001, true), "running_sum_tiled");     // double samples: step 7 is float only
  EXPECT_EQ(pick(true, true, 127, true), "running_sum_segmented");   // its error 2.3x below the direct sum's here
  EXPECT_EQ(pick(true, true, 95, true), "running_sum_segmented");    // 1.8x below the direct sum's
  EXPECT_EQ(pick(true, true, 93, true), "running_sum_tiled");
  EXPECT_EQ(pick(true, true, 15, true), "shared_window");      // measured 0.758 vs 0.814 ms
  EXPECT_EQ(pick(true, true, 47, true), "running_sum_tiled");  // measured 0.815 vs 1.040 ms
  EXPECT_EQ(pick(true, true, 9001, true), "shared_window");    // past the tiled rungs' 8191
  EXPECT_EQ(pick(true, true, 1001, false), "shared_window");
  EXPECT_EQ(pick(true, true, 20001, false), "");
  EXPECT_EQ(pick(true, true, 20001, true), "running_sum_global");
  // Double samples: shared_window to 8191 taps, nothing on the GPU past it.
  EXPECT_EQ(pick(true, false, 8191, false), "shared_window");
  EXPECT_EQ(pick(true, false, 9001, true), "");
  EXPECT_EQ(pick(true, false, 20001, true), "");
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

// ---- step 7's arithmetic, through its CPU model ------------------------------------
// segmented_model.hpp rounds as 07_running_sum_segmented.cu does (the GPU test
// compares them bit for bit), so its error bound is checked here on any input.

// Samples g in [lo, hi) under the edge rule, as an array from lo.
std::vector<float> extended(const std::vector<float>& x, Edge edge, long long lo, long long hi) {
  std::vector<float> e;
  for (long long g = lo; g < hi; ++g) e.push_back(moving_average_impl::cpu::sample(x.data(), x.size(), edge, g));
  return e;
}

struct SegmentedCheck {
  double max_rel = 0;  // |out - exact| / (c * window absolute sum)
  std::size_t first_bad = SIZE_MAX;
};

// Every output against segmented_prefix.hpp's bound:
// |out_i - c exact_i| <= 20 u c S + 2 u |out_i|, S = sum |x| over [i - h - 127, i + h].
SegmentedCheck check_segmented_model(const std::vector<float>& x, std::size_t w, Edge edge) {
  const std::size_t n = x.size();
  const long long h = static_cast<long long>(w / 2), reach = moving_average_impl::segmented::SEGMENT - 1;
  const float c = 1.0f / float(w);
  const auto out = moving_average_impl::segmented::model_outputs(x.data(), n, w, edge, c);
  // Long double prefixes of the samples and of |samples| from -h - reach.
  const long long lo = -h - reach;
  const auto e = extended(x, edge, lo, static_cast<long long>(n) + h + 1);
  std::vector<long double> P(e.size() + 1, 0), PA(e.size() + 1, 0);
  for (std::size_t j = 0; j < e.size(); ++j) {
    P[j + 1] = P[j] + e[j];
    PA[j + 1] = PA[j] + std::fabs(static_cast<long double>(e[j]));
  }
  SegmentedCheck r;
  const long double u = 0x1.0p-24L, cl = c;
  for (std::size_t i = 0; i < n; ++i) {
    const auto at = [&](long long g) { return static_cast<std::size_t>(g - lo); };
    const long long gi = static_cast<long long>(i);
    const long double exact = cl * (P[at(gi + h + 1)] - P[at(gi - h)]);
    const long double window_abs = cl * (PA[at(gi + h + 1)] - PA[at(gi - h)]);
    const long double S = cl * (PA[at(gi + h + 1)] - PA[at(gi - h - reach)]);
    const long double err = std::fabs(static_cast<long double>(out[i]) - exact);
    if (!(err <= 20 * u * S + 2 * u * std::fabs(static_cast<long double>(out[i]))) && r.first_bad == SIZE_MAX)
      r.first_bad = i;
    r.max_rel = std::max(r.max_rel, window_abs > 0 ? double(err / window_abs) : double(err));
  }
  return r;
}

// Random samples, a large offset with small noise (the prefixes' magnitude
// far above the window's variation), and alternating large signs (the
// segment totals cancel); n off every tile and segment; w from 1 to wider
// than the input (the arithmetic takes it; the API refuses w > n); both edges.
TEST(MovingAverageSegmented, ModelWithinItsErrorBound) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-1.0f, 1.5f), noise(-0.01f, 0.01f);
  const std::size_t ns[] = {1, 2, 3, 127, 128, 129, 4095, 4097, 3 * 4096 + 131};
  int runs = 0;
  for (int kind = 0; kind < 3; ++kind)
    for (std::size_t n : ns) {
      std::vector<float> x(n);
      for (std::size_t i = 0; i < n; ++i)
        x[i] = kind == 0 ? u(rng) : kind == 1 ? 1000.0f + noise(rng) : (i % 2 ? -1000.0f : 1000.0f) + noise(rng);
      for (std::size_t w : {std::size_t(1), std::size_t(3), std::size_t(15), std::size_t(1001), std::size_t(5001)})
        for (Edge edge : {Edge::zero, Edge::clamp}) {
          const SegmentedCheck r = check_segmented_model(x, w, edge);
          ++runs;
          ASSERT_EQ(r.first_bad, SIZE_MAX) << "kind " << kind << " n=" << n << " w=" << w
                                           << (edge == Edge::zero ? " zero" : " clamp") << " out[" << r.first_bad << "]";
          // The bound's size where every sample weighs ~1000 (offset data,
          // clamped edges): 20 u (w + 127) / w + 2 u of the window's
          // absolute sum, whatever w and the position.
          if (kind == 1 && edge == Edge::clamp) {
            EXPECT_LE(r.max_rel, 0x1.0p-24 * (20.0 * double(w + 127) / double(w) * 1.001 + 2.0)) << n << " " << w;
          }
        }
    }
  EXPECT_EQ(runs, 3 * 9 * 5 * 2);
}

// The policy's reason to pick step 7 for float boxes of w >= 95: on the
// bench's distribution (and on offset data) its max error is below the
// direct float sum's (shared_window: one FMA per tap, serial), while the
// tiled float prefix's was 0.95x the direct sum's only at w = 1001 (20x at 127).
TEST(MovingAverageSegmented, ModelBeatsTheDirectSumFromTheCrossover) {
  const std::size_t n = std::size_t(1) << 18;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-0.75f, 1.25f), noise(-0.01f, 0.01f);
  for (bool offset : {false, true}) {
    std::vector<float> x(n);
    for (auto& v : x) v = offset ? 1000.0f + noise(rng) : u(rng);
    for (std::size_t w : {moving_average_impl::policy::SEGMENTED_MIN_W, std::size_t(1001)}) {
      const float c = 1.0f / float(w);
      const MovingAverageSpec spec{Dtype::f32, n, w, Edge::zero, true};
      const std::vector<float> k(w, c);
      std::vector<double> ref(n), mag(n);
      moving_average_impl::cpu::window_sums_f64(x.data(), spec, k.data(), false, 0, n, ref.data());
      moving_average_impl::cpu::window_sums_f64(x.data(), spec, k.data(), true, 0, n, mag.data());
      const auto seg = moving_average_impl::segmented::model_outputs(x.data(), n, w, Edge::zero, c);
      double seg_max = 0, direct_max = 0;
      const std::size_t h = w / 2;
      for (std::size_t i = h; i + h < n; ++i) {
        float acc = 0;
        for (std::size_t j = i - h; j <= i + h; ++j) acc = std::fma(c, x[j], acc);
        seg_max = std::max(seg_max, std::fabs(seg[i] - ref[i]) / mag[i]);
        direct_max = std::max(direct_max, std::fabs(acc - ref[i]) / mag[i]);
      }
      RecordProperty((offset ? "offset_w" : "w") + std::to_string(w),
                     std::to_string(seg_max) + " vs direct " + std::to_string(direct_max));
      EXPECT_LT(seg_max, direct_max) << (offset ? "offset " : "") << "w=" << w;
      EXPECT_LT(seg_max, 4e-7) << (offset ? "offset " : "") << "w=" << w;  // a few float roundings of the window
    }
  }
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
