// The reduce registry and the CPU rungs (host pointers), checked against the
// independent reference of test_support.hpp. In CPU-only builds also the
// public API, which then runs on host memory.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "families/reduce/contract.hpp"
#include "families/reduce/policy.hpp"
#include "tessera/reduce.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using reduce_impl::ReduceCall;
using reduce_impl::ReduceSpec;
using reduce_impl::ReduceVariant;
using tessera_test::Combo;

constexpr std::size_t kSizes[] = {0, 1, 2, 3, 31, 32, 33, 1000, 1023, 1024, 1025, 65537, 1000003};

// The ladder's CPU rungs (the references), in ladder order.
std::vector<ReduceVariant> cpu_variants() {
  std::vector<ReduceVariant> out;
  for (const auto& v : reduce_impl::variants_ladder().all())
    if (v.info.backend == Backend::cpu) out.push_back(v);
  return out;
}

// ---- registry --------------------------------------------------------------

TEST(Registry, EveryVariantIsWellFormed) {
  const auto all = reduce_impl::variants_ladder().all();
  ASSERT_FALSE(all.empty());
  std::set<std::string_view> names;
  for (const auto& v : all) {
    SCOPED_TRACE(std::string(v.info.name));
    EXPECT_FALSE(v.info.name.empty());
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate variant name";
    EXPECT_EQ(v.info.pattern, "reduce");
    EXPECT_FALSE(v.info.adds.empty()) << "every rung says what it adds";
    EXPECT_GE(v.info.step, 0);
    EXPECT_NE(v.supports, nullptr);
    EXPECT_NE(v.workspace_bytes, nullptr);
    EXPECT_NE(v.run, nullptr);
    // Names are used as CLI selectors and test names.
    for (char ch : v.info.name)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') << "character '" << ch << "'";
  }
}

TEST(Registry, LadderOrderAndBackends) {
  const auto all = reduce_impl::variants_ladder().all();
  for (std::size_t i = 1; i < all.size(); ++i)
    EXPECT_LE(all[i - 1].info.step, all[i].info.step) << all[i - 1].info.name << " before " << all[i].info.name;
  EXPECT_FALSE(cpu_variants().empty());
  for (const auto& v : all) {
    const ReduceVariant* found = reduce_impl::variants_ladder().find(v.info.name);
    ASSERT_NE(found, nullptr) << v.info.name;
    EXPECT_EQ(found->run, v.run);
    // The CPU rungs are the references; everything else runs on the GPU.
    EXPECT_EQ(v.info.backend == Backend::cpu, v.info.kind() == Kind::reference) << v.info.name;
  }
  const auto& ladder = reduce_impl::variants_ladder();
  EXPECT_EQ(&ladder.at("cpu_openmp", "test"), ladder.find("cpu_openmp"));
  const std::string msg = tessera_test::error_message([] { (void)reduce_impl::variants_ladder().at("nope", "who"); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "who: no variant named 'nope'")) << msg;
  EXPECT_TRUE(tessera_test::has_substr(msg, "cpu_reference")) << msg;
}

TEST(Registry, ProductRowsAreExactlyThePolicysPicks) {
  std::set<std::string_view> picks;
  // The GPU's table (CUDA builds) and the one without a GPU: every rule
  // names a variant and carries its measurement; the last matches every shape.
  const auto check_table = [&](const auto& rules, bool gpu) {
    for (const auto& rule : rules) {
      if (gpu) picks.insert(rule.variant);
      EXPECT_NE(reduce_impl::variants_ladder().find(rule.variant), nullptr) << rule.variant;
      EXPECT_FALSE(rule.evidence.empty()) << rule.variant << ": a rule carries its measurement";
    }
    EXPECT_TRUE(std::end(rules)[-1].matches({Dtype::u8, Op::max, Accum::kahan, 0})) << "the last rule matches every shape";
  };
#if TESSERA_HAVE_CUDA
  check_table(reduce_impl::kGpuPolicy, true);
#endif
  check_table(reduce_impl::kCpuPolicy, false);
  for (const auto& v : reduce_impl::variants_ladder().all()) {
    if (v.info.backend == Backend::cpu) continue;  // the pick without a GPU is the OpenMP reference
    EXPECT_EQ(v.info.role == Role::product, picks.count(v.info.name) == 1) << v.info.name;
    EXPECT_NE(v.info.role, Role::tuning) << v.info.name << ": tuning rows live in the lab";
  }
}

TEST(Registry, ExactlyOneStepZeroCpuReference) {
  int step0 = 0;
  const ReduceVariant* ref = nullptr;
  for (const auto& v : reduce_impl::variants_ladder().all())
    if (v.info.step == 0) {
      ++step0;
      ref = &v;
    }
  ASSERT_EQ(step0, 1);
  EXPECT_EQ(ref->info.kind(), Kind::reference);
  EXPECT_EQ(ref->info.backend, Backend::cpu);
  EXPECT_TRUE(ref->info.deterministic);
  EXPECT_EQ(&reduce_impl::variants_ladder().all().front(), ref) << "the reference heads the ladder";
  // Everything is checked against it, so it handles every combination.
  for (const Combo& c : tessera_test::all_combos()) {
    if (!tessera_test::dispatch_supported(c)) continue;
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1) << 31}) {
      EXPECT_TRUE(ref->supports(tessera_test::spec_of(c, n))) << tessera_test::combo_name(c) << " n=" << n;
    }
  }
}

TEST(Registry, CudaBuildHasTesseraAndVendorVariants) {
  int vendor = 0, tessera_kind = 0;
  for (const auto& v : reduce_impl::variants_ladder().all()) {
    vendor += v.info.kind() == Kind::vendor;
    tessera_kind += v.info.kind() == Kind::tessera;
  }
#if TESSERA_HAVE_CUDA
  EXPECT_GE(vendor, 1);
  EXPECT_GE(tessera_kind, 1);
  for (const auto& v : reduce_impl::variants_ladder().all()) {
    if (v.info.kind() == Kind::tessera || v.info.kind() == Kind::vendor) {
      EXPECT_EQ(v.info.backend, Backend::cuda) << v.info.name;
    }
  }
#else
  EXPECT_EQ(reduce_impl::variants_ladder().all().size(), cpu_variants().size());
  EXPECT_EQ(vendor, 0);
  EXPECT_EQ(tessera_kind, 0);
#endif
}

TEST(Registry, FindVariant) {
  for (const auto& v : reduce_impl::variants_ladder().all()) {
    EXPECT_EQ(reduce_impl::variants_ladder().find(v.info.name), &v);
    const std::string name(v.info.name);
    EXPECT_EQ(reduce_impl::variants_ladder().find(name.substr(0, name.size() - 1)), nullptr) << "prefix of " << name;
    EXPECT_EQ(reduce_impl::variants_ladder().find(name + "x"), nullptr);
  }
  EXPECT_EQ(reduce_impl::variants_ladder().find("no_such"), nullptr);
  EXPECT_EQ(reduce_impl::variants_ladder().find(""), nullptr);
  EXPECT_NE(reduce_impl::variants_ladder().find("cpu_reference"), nullptr);
}

TEST(Registry, SupportsOnlyWhatTheReducersImplementWhateverN) {
  for (const auto& v : reduce_impl::variants_ladder().all()) {
    int supported = 0;
    for (const Combo& c : tessera_test::all_combos()) {
      SCOPED_TRACE(std::string(v.info.name) + " " + tessera_test::combo_name(c));
      const bool at_1000 = v.supports(tessera_test::spec_of(c, 1000));
      if (at_1000) ++supported;
      if (!tessera_test::dispatch_supported(c)) {
        EXPECT_FALSE(at_1000) << "claims an unsupported combination";
      }
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(33), std::size_t(1) << 31})
        EXPECT_EQ(v.supports(tessera_test::spec_of(c, n)), at_1000) << "support changes with n = " << n;
    }
    EXPECT_GT(supported, 0) << v.info.name << " supports nothing";
  }
}

TEST(Registry, EverySupportedCombinationHasAPublicVariant) {
  for (const Combo& c : tessera_test::all_combos()) {
    if (!tessera_test::dispatch_supported(c)) continue;
    SCOPED_TRACE(tessera_test::combo_name(c));
#if TESSERA_HAVE_CUDA
    int cuda = 0;
    for (const auto& v : reduce_impl::variants_ladder().all())
      cuda += v.info.backend == Backend::cuda && v.supports(tessera_test::spec_of(c, 1000));
    EXPECT_GE(cuda, 1) << "no CUDA variant";
#endif
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000003), std::size_t(1) << 31}) {
      // The build's own policy: the GPU's in CUDA builds (a default call takes
      // it where there is a GPU; tests/test_host_calls.cpp covers none).
      const std::string name(reduce_impl::policy_pick(tessera_test::spec_of(c, n), TESSERA_HAVE_CUDA));
      const ReduceVariant* v = reduce_impl::variants_ladder().find(name);
      ASSERT_NE(v, nullptr) << "default variant '" << name << "' is not registered";
      EXPECT_TRUE(v->supports(tessera_test::spec_of(c, n))) << "default variant '" << name << "', n = " << n;
#if TESSERA_HAVE_CUDA
      EXPECT_EQ(v->info.backend, Backend::cuda) << "the public API takes device pointers";
#else
      EXPECT_EQ(v->info.backend, Backend::cpu);
#endif
    }
  }
}

// ---- the public API in every build ------------------------------------------

TEST(ReduceApi, WorkspaceQueryRejectsWhatTheCallsReject) {
  std::string msg =
      tessera_test::error_message([] { (void)reduce_workspace_bytes<float>(100, {.variant = "no_such_variant"}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "tessera::reduce_workspace_bytes: no variant named 'no_such_variant'"))
      << msg;
  msg = tessera_test::error_message([] { (void)reduce_workspace_bytes<std::int32_t>(100, {.accum = Accum::kahan}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "kahan")) << msg;
  EXPECT_EQ(reduce_workspace_bytes<float>(100, {.variant = "cpu_reference"}), 0u) << "the CPU rungs need no scratch";
}

// ---- the CPU rungs -------------------------------------------------------

struct CpuCase {
  std::string variant;
  Combo combo;
};

void PrintTo(const CpuCase& c, std::ostream* os) { *os << c.variant << " " << tessera_test::combo_name(c.combo); }

std::vector<CpuCase> cpu_cases() {
  std::vector<CpuCase> cases;
  for (const auto& v : cpu_variants())
    for (const Combo& c : tessera_test::all_combos())
      if (tessera_test::dispatch_supported(c) && v.supports(tessera_test::spec_of(c, 1000)))
        cases.push_back({std::string(v.info.name), c});
  return cases;
}

// Runs a CPU variant on host data; checks that exactly one result element
// was written and the input was left alone.
template <class T>
reduce_result_t<T> run_cpu(const ReduceVariant& v, const Combo& c, const T* x, std::size_t n) {
  using R = reduce_result_t<T>;
  const ReduceSpec spec = tessera_test::spec_of(c, n);
  std::vector<unsigned char> ws(v.workspace_bytes(spec), 0xA5);
  std::array<R, 2> out;
  std::memset(out.data(), 0xFF, sizeof out);
  const std::vector<T> before(x, x + (n <= 65537 ? n : 0));
  v.run(ReduceCall{spec, x, out.data(), ws.empty() ? nullptr : ws.data(), nullptr});
  unsigned char guard[sizeof(R)];
  std::memcpy(guard, &out[1], sizeof(R));
  for (unsigned char b : guard) EXPECT_EQ(b, 0xFF) << "wrote past the single output element";
  if (!before.empty()) {
    EXPECT_EQ(std::memcmp(before.data(), x, before.size() * sizeof(T)), 0) << "modified its input";
  }
  return out[0];
}

class CpuVariant : public ::testing::TestWithParam<CpuCase> {
 protected:
  const ReduceVariant& variant() const {
    const ReduceVariant* v = reduce_impl::variants_ladder().find(GetParam().variant);
    EXPECT_NE(v, nullptr);
    return *v;
  }
};

template <class T>
void check_case(const ReduceVariant& v, const Combo& c, std::size_t n, harness::Distribution dist) {
  SCOPED_TRACE(::testing::Message() << v.info.name << " " << tessera_test::combo_name(c) << " n=" << n << " "
                                    << harness::to_string(dist));
  const std::uint64_t seed = tessera_test::seed_for(std::string(v.info.name) + tessera_test::combo_name(c), n,
                                                    static_cast<std::uint64_t>(dist));
  std::vector<T> x(n);
  harness::fill_random(x.data(), n, seed, dist);
  const auto ref = tessera_test::reference(x.data(), n, c.op);
  const auto got = run_cpu<T>(v, c, n == 0 ? nullptr : x.data(), n);
  EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << "seed " << seed;
}

TEST_P(CpuVariant, MatchesReferenceAtEverySize) {
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (std::size_t n : kSizes) check_case<T>(variant(), c, n, harness::Distribution::uniform);
  });
}

TEST_P(CpuVariant, OtherDistributions) {
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (auto dist : {harness::Distribution::small, harness::Distribution::skewed, harness::Distribution::constant})
      for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(1025), std::size_t(65537)})
        check_case<T>(variant(), c, n, dist);
  });
}

TEST_P(CpuVariant, ExtremesAnywhere) {
  // A unique extreme value at the first, a middle or the last position.
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (std::size_t n : {std::size_t(1), std::size_t(32), std::size_t(1025), std::size_t(65537)})
      for (std::size_t pos : {std::size_t(0), n / 2, n - 1}) {
        std::vector<T> x(n);
        harness::fill_random(x.data(), n, tessera_test::seed_for("extremes", n, pos), harness::Distribution::small);
        T extreme;
        if constexpr (std::is_floating_point_v<T>) extreme = c.op == Op::max ? T(1e6) : T(-1e6);
        else extreme = c.op == Op::max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
        x[pos] = extreme;
        const auto ref = tessera_test::reference(x.data(), n, c.op);
        const auto got = run_cpu<T>(variant(), c, x.data(), n);
        EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << "n=" << n << " pos=" << pos;
      }
  });
}

std::string case_name(const ::testing::TestParamInfo<CpuCase>& info) {
  return tessera_test::identifier(info.param.variant + "_" + tessera_test::combo_name(info.param.combo));
}

INSTANTIATE_TEST_SUITE_P(Reduce, CpuVariant, ::testing::ValuesIn(cpu_cases()), case_name);

TEST(CpuVariants, MinMaxPropagateNaN) {
  for (const auto& v : cpu_variants())
    for (Dtype t : {Dtype::f32, Dtype::f64})
      for (Op op : {Op::min, Op::max}) {
        const Combo c{t, op, Accum::native};
        SCOPED_TRACE(std::string(v.info.name) + " " + tessera_test::combo_name(c));
        tessera_test::with_type(t, [&]<class T>() {
          if constexpr (std::is_floating_point_v<T>) {
            for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(33), std::size_t(1025), std::size_t(65537)})
              for (std::size_t pos : {std::size_t(0), n / 2, n - 1}) {
                std::vector<T> x(n);
                harness::fill_random(x.data(), n, tessera_test::seed_for("nan", n, pos), harness::Distribution::uniform);
                x[pos] = std::numeric_limits<T>::quiet_NaN();
                const auto got = run_cpu<T>(v, c, x.data(), n);
                EXPECT_TRUE(std::isnan(got)) << "n=" << n << " NaN at " << pos << ", got " << got;
              }
          }
        });
      }
}

TEST(CpuVariants, DeterministicWhenTheySaySo) {
  for (const auto& v : cpu_variants()) {
    if (!v.info.deterministic) continue;
    for (const Combo& c : tessera_test::all_combos()) {
      if (!tessera_test::dispatch_supported(c) || !v.supports(tessera_test::spec_of(c, 1000003))) continue;
      SCOPED_TRACE(std::string(v.info.name) + " " + tessera_test::combo_name(c));
      tessera_test::with_type(c.dtype, [&]<class T>() {
        constexpr std::size_t n = 1000003;
        std::vector<T> x(n);
        harness::fill_random(x.data(), n, 99, harness::Distribution::uniform);
        const auto a = run_cpu<T>(v, c, x.data(), n);
        const auto b = run_cpu<T>(v, c, x.data(), n);
        EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << a << " vs " << b;
      });
    }
  }
}


// ---- the public API in CPU-only builds (host pointers) -----------------------

#if !TESSERA_HAVE_CUDA

TEST(CpuOnlyApi, MatchesReference) {
  for (const Combo& c : tessera_test::all_combos()) {
    if (!tessera_test::dispatch_supported(c)) continue;
    SCOPED_TRACE(tessera_test::combo_name(c));
    tessera_test::with_type(c.dtype, [&]<class T>() {
      for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(100003)}) {
        std::vector<T> x(n);
        harness::fill_random(x.data(), n, tessera_test::seed_for("api", n), harness::Distribution::uniform);
        const auto ref = tessera_test::reference(x.data(), n, c.op);
        EXPECT_TRUE((tessera_test::check_result<T>(reduce(x.data(), n, {.op = c.op, .accum = c.accum}), ref, c.op,
                                                  c.accum, n)));
        for (const auto& v : cpu_variants()) {
          const auto got = reduce(x.data(), n, {.op = c.op, .accum = c.accum, .variant = std::string(v.info.name)});
          EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << v.info.name;
        }
        reduce_result_t<T> into{};
        reduce_into(x.data(), n, &into, {.op = c.op, .accum = c.accum});
        EXPECT_TRUE((tessera_test::check_result<T>(into, ref, c.op, c.accum, n)));
      }
      EXPECT_EQ(reduce(static_cast<const T*>(nullptr), 0, {.op = c.op, .accum = c.accum}),
                tessera_test::identity_of<T>(c.op));
    });
  }
}

TEST(CpuOnlyApi, ErrorsNameTheProblemAndLeaveTheOutputAlone) {
  std::vector<float> x(100, 1.0f);
  std::vector<std::int32_t> xi(100, 1);
  float out = 42.0f;
  std::int64_t outi = 42;

  std::string msg = tessera_test::error_message([&] { reduce_into<float>(nullptr, 10, &out); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "tessera::reduce_into: d_in"));
  EXPECT_TRUE(tessera_test::has_substr(msg, "null"));
  EXPECT_EQ(out, 42.0f);

  msg = tessera_test::error_message([&] { reduce_into(xi.data(), xi.size(), &outi, {.accum = Accum::kahan}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "int32"));
  EXPECT_TRUE(tessera_test::has_substr(msg, "kahan"));
  EXPECT_EQ(outi, 42);

  msg = tessera_test::error_message(
      [&] { reduce_into(x.data(), x.size(), &out, {.op = Op::min, .accum = Accum::dfloat}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "dfloat"));
  EXPECT_EQ(out, 42.0f);

  msg = tessera_test::error_message(
      [&] { reduce_into(x.data(), x.size(), &out, {.variant = "no_such_variant"}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "no_such_variant"));
  EXPECT_EQ(out, 42.0f);

  msg = tessera_test::error_message([&] { reduce_into(x.data(), x.size(), static_cast<float*>(nullptr)); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "d_out"));

  msg = tessera_test::error_message([&] { (void)reduce<float>(nullptr, 1, {.op = Op::max}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "d_in"));
}

#endif

}  // namespace
