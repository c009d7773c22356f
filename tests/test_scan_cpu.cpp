// The scan registry, the scan operators, the CPU rungs (host pointers) and
// the harness's scan problems, checked against the independent reference of
// test_scan_support.hpp. In CPU-only builds also the public API, which then
// runs on host memory; its argument checks in every build.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/registry.hpp"
#include "harness/generate.hpp"
#include "harness/runner.hpp"
#include "families/scan/contract.hpp"
#include "families/scan/policy.hpp"
#include "tessera/scan.hpp"
#include "test_scan_support.hpp"

namespace {

using namespace tessera;
using scan_impl::ScanCall;
using scan_impl::ScanSpec;
using scan_impl::ScanVariant;
using tessera_test::ScanCombo;

constexpr std::size_t kSizes[] = {0, 1, 2, 3, 31, 32, 33, 1000, 1023, 1024, 1025, 65537};

// The ladder's CPU rungs (the references), in ladder order.
std::vector<ScanVariant> cpu_variants() {
  std::vector<ScanVariant> out;
  for (const auto& v : scan_impl::variants_ladder().all())
    if (v.info.backend == Backend::cpu) out.push_back(v);
  return out;
}

// ---- registry ----------------------------------------------------------------

TEST(ScanRegistry, EveryVariantIsWellFormed) {
  const auto all = scan_impl::variants_ladder().all();
  ASSERT_FALSE(all.empty());
  std::set<std::string_view> names;
  for (const auto& v : all) {
    SCOPED_TRACE(std::string(v.info.name));
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate variant name";
    EXPECT_EQ(v.info.pattern, "scan");
    EXPECT_FALSE(v.info.adds.empty()) << "every rung says what it adds";
    EXPECT_GE(v.info.step, 0);
    EXPECT_NE(v.supports, nullptr);
    EXPECT_NE(v.workspace_bytes, nullptr);
    EXPECT_NE(v.run, nullptr);
    for (char ch : v.info.name)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') << "character '" << ch << "'";
    EXPECT_EQ(scan_impl::variants_ladder().find(v.info.name), &v);
  }
  EXPECT_EQ(scan_impl::variants_ladder().find("no_such"), nullptr);
  EXPECT_EQ(scan_impl::variants_ladder().find(""), nullptr);
}

TEST(ScanRegistry, LadderOrderStepZeroAndBackends) {
  const auto all = scan_impl::variants_ladder().all();
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].info.step, all[i].info.step);
  EXPECT_EQ(all.front().info.name, "cpu_reference");
  EXPECT_EQ(all.front().info.step, 0);
  int step0 = 0;
  for (const auto& v : all) {
    step0 += v.info.step == 0;
    // The CPU rungs are the references; everything else runs on the GPU.
    EXPECT_EQ(v.info.backend == Backend::cpu, v.info.kind() == Kind::reference) << v.info.name;
  }
  EXPECT_EQ(step0, 1);
  EXPECT_FALSE(cpu_variants().empty());
#if TESSERA_HAVE_CUDA
  // The ladder of issue 3: steps 2-9 on the GPU, a tessera rung and the vendor.
  std::set<int> steps;
  int tessera_kind = 0, vendor = 0;
  for (const auto& v : all) {
    steps.insert(v.info.step);
    tessera_kind += v.info.kind() == Kind::tessera;
    vendor += v.info.kind() == Kind::vendor;
  }
  for (int s = 0; s <= 10; ++s) EXPECT_TRUE(steps.count(s)) << "no variant at step " << s;
  EXPECT_GE(tessera_kind, 1);
  EXPECT_EQ(vendor, 1);
  EXPECT_NE(scan_impl::variants_ladder().find("lookback"), nullptr);
  EXPECT_NE(scan_impl::variants_ladder().find("cub_device_scan"), nullptr);
#else
  EXPECT_EQ(all.size(), cpu_variants().size());
#endif
}

TEST(ScanRegistry, ProductRowsAreExactlyThePolicysPicks) {
  std::set<std::string_view> picks;
  // The GPU's table (CUDA builds) and the one without a GPU: every rule
  // names a variant and carries its measurement; the last matches every shape.
  const auto check_table = [&](const auto& rules, bool gpu) {
    for (const auto& rule : rules) {
      if (gpu) picks.insert(rule.variant);
      EXPECT_NE(scan_impl::variants_ladder().find(rule.variant), nullptr) << rule.variant;
      EXPECT_FALSE(rule.evidence.empty()) << rule.variant << ": a rule carries its measurement";
    }
    EXPECT_TRUE(std::end(rules)[-1].matches({Dtype::u8, Op::max, Accum::kahan, true, 0})) << "the last rule matches every shape";
  };
#if TESSERA_HAVE_CUDA
  check_table(scan_impl::kGpuPolicy, true);
#endif
  check_table(scan_impl::kCpuPolicy, false);
  for (const auto& v : scan_impl::variants_ladder().all()) {
    if (v.info.backend == Backend::cpu) continue;  // the pick without a GPU is the OpenMP reference
    EXPECT_EQ(v.info.role == Role::product, picks.count(v.info.name) == 1) << v.info.name;
    EXPECT_NE(v.info.role, Role::tuning) << v.info.name << ": tuning rows live in the lab";
  }
  // Every supported combination has a pick that takes it.
  for (const ScanCombo& c : tessera_test::scan_combos()) {
    const ScanSpec spec = tessera_test::scan_spec(c, false, 1000);
    const std::string name = scan_default_variant(c.dtype, c.op, c.accum, false, 1000);
    const ScanVariant* v = scan_impl::variants_ladder().find(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->supports(spec)) << name << " " << tessera_test::scan_combo_name(c);
  }
}

TEST(ScanRegistry, SupportFollowsTheOperatorsWhateverN) {
  for (const auto& v : scan_impl::variants_ladder().all()) {
    int supported = 0;
    for (Dtype t : {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32, Dtype::u8})
      for (Op op : tessera_test::kOps)
        for (Accum a : tessera_test::kAccums) {
          SCOPED_TRACE(std::string(v.info.name) + " " + std::string(to_string(t)) + " " + std::string(to_string(op)) +
                       " " + std::string(to_string(a)));
          const bool at_1000 = v.supports({t, op, a, false, 1000});
          supported += at_1000;
          if (!scan_supported(t, op, a)) {
            EXPECT_FALSE(at_1000) << "claims an unsupported combination";
          }
          for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1) << 31})
            for (bool ex : {false, true}) EXPECT_EQ(v.supports({t, op, a, ex, n}), at_1000);
        }
    EXPECT_GT(supported, 0) << v.info.name;
  }
}

// ---- the operators -------------------------------------------------------------

TEST(ScanOps, SupportedCombinationsAreTheDocumentedOnes) {
  int count = 0;
  for (Dtype t : {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32, Dtype::u8})
    for (Op op : tessera_test::kOps)
      for (Accum a : tessera_test::kAccums) {
        bool documented = false;
        for (const ScanCombo& c : tessera_test::scan_combos()) documented |= c.dtype == t && c.op == op && c.accum == a;
        EXPECT_EQ(scan_supported(t, op, a), documented)
            << to_string(t) << " " << to_string(op) << " " << to_string(a);
        count += documented;
      }
  EXPECT_EQ(count, 4 + 2 + 3 + 10);  // float sums x4, double sum (native, double), 3 integer sums, min/max x10
}

TEST(ScanOps, IntegerSumsWrapInTheirOwnWidth) {
  using W32 = WrapSum<std::uint32_t>;
  EXPECT_EQ(W32::combine(0xFFFFFFFFu, 2u), 1u);
  ScanOf<W32> f;
  // int32 data reinterpreted: INT32_MAX + 1 wraps to INT32_MIN.
  const std::int32_t a = INT32_MAX, b = 1;
  std::uint32_t ua, ub;
  std::memcpy(&ua, &a, 4);
  std::memcpy(&ub, &b, 4);
  const std::uint32_t s = f.output(f.combine(f.lift(ua), f.lift(ub)));
  std::int32_t si;
  std::memcpy(&si, &s, 4);
  EXPECT_EQ(si, INT32_MIN);
  using W64 = WrapSum<std::uint64_t>;
  EXPECT_EQ(W64::combine(~std::uint64_t(0), 1), 0u);
}

TEST(ScanOps, StatesOfWideAccumulatorsAreScannedAsStates) {
  static_assert(std::is_same_v<states_scan_t<PlainSum<float, float>>, ScanOf<PlainSum<float, float>>>);
  static_assert(std::is_same_v<states_scan_t<DFloatSum>, StatesOf<DFloatSum>>);
  static_assert(std::is_same_v<states_scan_t<MinOp<std::uint32_t>>, ScanOf<MinOp<std::uint32_t>>>);
  static_assert(std::is_same_v<ScanOf<MinOp<std::int32_t>>::out_t, std::int32_t>);
  ScanOf<MinOp<std::uint32_t>> f;
  EXPECT_EQ(f.identity(), UINT32_MAX);
  EXPECT_EQ(f.combine(7u, 3u), 3u);
  ScanOf<MaxOp<std::uint32_t>> g;
  EXPECT_EQ(g.identity(), 0u);
  // Double-float keeps what float loses: 2^24 + 1 + 1.
  ScanOf<DFloatSum> d;
  auto s = d.combine(d.combine(d.lift(16777216.0f), d.lift(1.0f)), d.lift(1.0f));
  EXPECT_EQ(d.output(s), 16777218.0f);
  ScanOf<PlainSum<float, float>> p;
  EXPECT_EQ(p.output(p.combine(p.combine(p.lift(16777216.0f), p.lift(1.0f)), p.lift(1.0f))), 16777216.0f);
}

// ---- CPU rungs -------------------------------------------------------------------

template <class T>
std::vector<T> random_input(std::size_t n, harness::Distribution d, const std::string& tag) {
  std::vector<T> x(n);
  harness::fill_random(x.data(), n, tessera_test::seed_for(tag, n, sizeof(T)), d);
  return x;
}

// Runs a CPU variant out of place (poisoned output) and in place, checks both.
template <class T>
void check_cpu(const ScanVariant& v, const ScanCombo& c, bool exclusive, const std::vector<T>& x) {
  const std::size_t n = x.size();
  SCOPED_TRACE(::testing::Message() << v.info.name << " " << tessera_test::scan_combo_name(c) << (exclusive ? " exclusive" : "")
                                    << " n=" << n);
  const ScanSpec spec = tessera_test::scan_spec(c, exclusive, n);
  ASSERT_TRUE(v.supports(spec));
  const auto ref = tessera_test::scan_reference(x.data(), n, c.op, exclusive);
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  std::vector<T> y(n + 1);
  std::memset(y.data(), 0xA5, y.size() * sizeof(T));
  const T guard = y[n];
  v.run(ScanCall{spec, x.data(), y.data(), ws.data(), nullptr});
  EXPECT_TRUE(tessera_test::check_scan(y.data(), ref, n, c, exclusive));
  EXPECT_EQ(std::memcmp(&y[n], &guard, sizeof(T)), 0) << "wrote past the output";
  std::vector<T> z = x;
  v.run(ScanCall{spec, z.data(), z.data(), ws.data(), nullptr});
  EXPECT_TRUE(tessera_test::check_scan(z.data(), ref, n, c, exclusive)) << "in place";
}

TEST(ScanCpu, EveryCombinationEverySize) {
  for (const auto& v : cpu_variants())
    for (const ScanCombo& c : tessera_test::scan_combos())
      tessera_test::with_scan_type(c.dtype, [&]<class T>() {
        for (std::size_t n : kSizes)
          for (bool ex : {false, true}) check_cpu<T>(v, c, ex, random_input<T>(n, harness::Distribution::uniform, "cpu"));
        // Larger float sums, where accumulation error grows.
        if (c.dtype == Dtype::f32 && c.op == Op::sum)
          check_cpu<T>(v, c, false, random_input<T>(262147, harness::Distribution::uniform, "cpu"));
      });
}

TEST(ScanCpu, OtherDistributions) {
  for (const auto& v : cpu_variants())
    for (const ScanCombo& c : tessera_test::scan_combos())
      tessera_test::with_scan_type(c.dtype, [&]<class T>() {
        for (auto d : {harness::Distribution::small, harness::Distribution::skewed, harness::Distribution::constant})
          check_cpu<T>(v, c, false, random_input<T>(4097, d, "dist"));
      });
}

TEST(ScanCpu, MinMaxPropagateNaN) {
  for (const auto& v : cpu_variants())
    for (Op op : {Op::min, Op::max}) {
      std::vector<float> x = random_input<float>(1000, harness::Distribution::uniform, "nan");
      x[400] = std::numeric_limits<float>::quiet_NaN();
      std::vector<float> y(1000);
      v.run(ScanCall{{Dtype::f32, op, Accum::native, false, 1000}, x.data(), y.data(), nullptr, nullptr});
      for (std::size_t i = 0; i < 400; ++i) EXPECT_FALSE(std::isnan(y[i])) << v.info.name << " i=" << i;
      for (std::size_t i = 400; i < 1000; ++i) EXPECT_TRUE(std::isnan(y[i])) << v.info.name << " i=" << i;
    }
}

TEST(ScanCpu, WideAccumulatorsKeepWhatFloatLoses) {
  // 2^24 followed by ones: a float running sum stops growing, the wider ones
  // do not.
  const std::size_t n = 1001;
  std::vector<float> x(n, 1.0f);
  x[0] = 16777216.0f;
  for (const auto& v : cpu_variants())
    for (Accum a : {Accum::f64, Accum::kahan, Accum::dfloat}) {
      std::vector<float> y(n);
      v.run(ScanCall{{Dtype::f32, Op::sum, a, false, n}, x.data(), y.data(), nullptr, nullptr});
      EXPECT_EQ(y[n - 1], 16777216.0f + 1000.0f) << v.info.name << " " << to_string(a);
    }
}

// ---- the harness's scan problems -----------------------------------------------------

TEST(ScanHarness, ProblemsAndHeadline) {
  const harness::Pattern* p = find_pattern("scan");
  ASSERT_NE(p, nullptr);
  harness::RunOptions o;
  o.quick = true;
  const auto quick = p->verify_problems(o);
  EXPECT_GE(quick.size(), tessera_test::scan_combos().size() * 2);
  o.quick = false;
  o.headline = true;
  EXPECT_LE(p->bench_problems(o).size(), 2u);
  o.headline = false;
  o.large = true;
  o.type = Dtype::f32;
  o.op = Op::sum;
  o.accum = Accum::native;
  bool has_large = false;
  for (const auto& f : p->verify_problems(o)) has_large |= f.label.find("n=2147483665") != std::string::npos;
  EXPECT_TRUE(has_large) << "--large adds a size past 2^31";
}

TEST(ScanHarness, VerifyPassesOnTheCpuRungs) {
  std::ostringstream out;
  harness::RunOptions o;
  o.quick = true;
  o.type = Dtype::f32;
  const auto report = harness::run_verify(harness::parse_selector("scan"), o, harness::DeviceInfo{}, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  EXPECT_GT(report.results.size(), 10u);
}

// ---- the public API ----------------------------------------------------------------

TEST(ScanApi, ArgumentErrorsNameTheProblemAndWriteNothing) {
  using tessera_test::error_message;
  using tessera_test::has_substr;
  std::vector<float> x(100, 1.0f), y(100, -7.0f);
  const std::vector<float> y0 = y;
  std::string msg = error_message([&] { inclusive_scan<float>(nullptr, 100, y.data()); });
  EXPECT_TRUE(has_substr(msg, "d_in"));
  EXPECT_TRUE(has_substr(msg, "inclusive_scan"));
  // The workspace query rejects what the calls reject, under its own name.
  msg = error_message([&] { (void)scan_workspace_bytes<float>(100, {.variant = "no_such_variant"}); });
  EXPECT_TRUE(has_substr(msg, "tessera::scan_workspace_bytes: no variant named 'no_such_variant'")) << msg;
  msg = error_message([&] { (void)scan_workspace_bytes<std::int32_t>(100, {.accum = Accum::dfloat}); });
  EXPECT_TRUE(has_substr(msg, "dfloat")) << msg;
  msg = error_message([&] { exclusive_scan<float>(x.data(), 100, nullptr); });
  EXPECT_TRUE(has_substr(msg, "d_out"));
  EXPECT_TRUE(has_substr(msg, "exclusive_scan"));
  // Overlapping but different arrays.
  msg = error_message([&] { inclusive_scan<float>(x.data(), 99, x.data() + 1); });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  msg = error_message([&] { inclusive_scan<float>(x.data() + 50, 51, x.data()); });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  // Unsupported combinations and unknown variants.
  std::vector<std::int32_t> xi(100, 1), yi(100, 0);
  msg = error_message([&] { inclusive_scan(xi.data(), 100, yi.data(), {.accum = Accum::kahan}); });
  EXPECT_TRUE(has_substr(msg, "kahan"));
  EXPECT_TRUE(has_substr(msg, "int32"));
  msg = error_message([&] { inclusive_scan(x.data(), 100, y.data(), {.op = Op::max, .accum = Accum::dfloat}); });
  EXPECT_TRUE(has_substr(msg, "dfloat"));
  msg = error_message([&] { inclusive_scan(x.data(), 100, y.data(), {.variant = "no_such_variant"}); });
  EXPECT_TRUE(has_substr(msg, "no_such_variant"));
  EXPECT_EQ(y, y0) << "a failed call wrote to the output";
  // Adjacent arrays do not overlap; n = 0 does nothing, even with null pointers.
  EXPECT_NO_THROW(inclusive_scan<float>(nullptr, 0, nullptr));
  EXPECT_NO_THROW(exclusive_scan<float>(x.data(), 0, y.data()));
  EXPECT_EQ(y, y0);
}

#if !TESSERA_HAVE_CUDA
TEST(ScanApi, CpuOnlyBuildRunsOnHostMemory) {
  EXPECT_EQ(scan_default_variant(Dtype::f32, Op::sum, Accum::native, false, 1000), "cpu_openmp");
  for (const ScanCombo& c : tessera_test::scan_combos())
    tessera_test::with_scan_type(c.dtype, [&]<class T>() {
      for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(65537)})
        for (bool ex : {false, true}) {
          SCOPED_TRACE(tessera_test::scan_combo_name(c) + " n=" + std::to_string(n) + (ex ? " exclusive" : ""));
          const auto x = random_input<T>(n, harness::Distribution::uniform, "api");
          const auto ref = tessera_test::scan_reference(x.data(), n, c.op, ex);
          std::vector<T> y(n);
          if (ex) exclusive_scan(x.data(), n, y.data(), {.op = c.op, .accum = c.accum});
          else inclusive_scan(x.data(), n, y.data(), {.op = c.op, .accum = c.accum});
          EXPECT_TRUE(tessera_test::check_scan(y.data(), ref, n, c, ex));
          std::vector<T> z = x;  // in place, by name
          if (ex) exclusive_scan(z.data(), n, z.data(), {.op = c.op, .accum = c.accum, .variant = "cpu_reference"});
          else inclusive_scan(z.data(), n, z.data(), {.op = c.op, .accum = c.accum, .variant = "cpu_reference"});
          EXPECT_TRUE(tessera_test::check_scan(z.data(), ref, n, c, ex));
        }
    });
}
#endif

}  // namespace
