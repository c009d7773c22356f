// The compositions on the CPU: the step-0 and step-1 rungs against the
// independent reference of compose_test_support.hpp for every family, type
// and predicate at edge sizes; the input generators; the tables; the public
// API's CPU path and its errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <numeric>
#include <string>
#include <vector>

#include "compose_test_support.hpp"
#include "harness/registry.hpp"
#include "families/compose/contract.hpp"
#include "families/compose/policy.hpp"
#include "tessera/compact.hpp"
#include "tessera/core/error.hpp"
#include "tessera/map.hpp"

namespace {

using namespace compose_test;
using tessera::compose_impl::Call;
using tessera::compose_impl::Variant;

constexpr std::size_t kSizes[] = {0, 1, 2, 3, 31, 32, 33, 257, 4095, 4097, 65537};

// Runs a CPU variant on host buffers with poisoned outputs; checks against the
// reference.
template <class T>
void check_cpu(const Variant& v, const Input<T>& in, unsigned char poison = 0xA5) {
  const Spec& s = in.spec;
  const std::size_t cap = tessera::compose_impl::output_capacity(s);
  std::vector<T> out(cap);
  std::vector<std::int64_t> lengths(tessera::compose_impl::has_lengths(s.family) ? cap : 0);
  std::memset(out.data(), poison, out.size() * sizeof(T));
  std::memset(lengths.data(), poison, lengths.size() * sizeof(std::int64_t));
  std::int64_t count;
  std::memset(&count, poison, sizeof count);
  std::vector<unsigned char> ws(v.workspace_bytes(s));
  v.run(Call{s, in.x.data(), in.flags.empty() ? nullptr : in.flags.data(), out.data(), lengths.data(), &count,
             ws.data(), nullptr});
  expect_matches(s, reference(s, in.x, in.flags), out, lengths, count, poison);
}

class CpuRungs : public ::testing::TestWithParam<Spec> {};

TEST_P(CpuRungs, MatchReferenceAtEdgeSizes) {
  const Spec base = GetParam();
  for (const auto& v : tessera::compose_impl::variants(base.family)) {
    if (v.info.backend != tessera::Backend::cpu || !v.supports(base)) continue;
    with_type(base.dtype, [&]<class T>() {
      for (Shape shape : shapes_for(base))
        for (std::size_t n : kSizes)
          for (double fraction : {0.05, 0.5, 0.95}) {
            SCOPED_TRACE(::testing::Message() << v.info.name << " " << spec_name(base) << " n=" << n << " shape "
                                              << static_cast<int>(shape) << " fraction " << fraction);
            const auto in = make_input<T>(base, n, seed_for(spec_name(base), n, static_cast<int>(shape)), shape, fraction);
            check_cpu(v, in);
          }
    });
  }
}

std::string spec_test_name(const ::testing::TestParamInfo<Spec>& info) { return spec_name(info.param); }

INSTANTIATE_TEST_SUITE_P(Compose, CpuRungs, ::testing::ValuesIn(all_specs()), spec_test_name);

// ---- semantics spelled out on small inputs --------------------------------------

TEST(ComposeSemantics, PartitionPutsRejectedInReverseAtTheEnd) {
  const std::vector<int> x = {5, 2, 8, 1, 9, 4, 7};
  std::vector<int> out(x.size(), -1);
  const auto k =
      tessera::partition_if(x.data(), x.size(), out.data(), {.pred = tessera::greater_than(4), .variant = "cpu_reference"});
  EXPECT_EQ(k, 4);
  EXPECT_EQ(out, (std::vector<int>{5, 8, 9, 7, 4, 1, 2}));
}

TEST(ComposeSemantics, SeedExamples) {
  // seed 003 FindUniq: MISSISSIPPI -> IMPS; unique of the sorted text -> IMPS.
  const std::string text = "MISSISSIPPI";
  std::vector<std::uint8_t> bytes(text.begin(), text.end()), out(text.size());
  auto k = tessera::find_unique(bytes.data(), bytes.size(), out.data(), {.variant = "cpu_reference"});
  EXPECT_EQ(std::string(out.begin(), out.begin() + k), "IMPS");
  k = tessera::find_unique(bytes.data(), bytes.size(), out.data(), {.variant = "cpu_openmp"});
  EXPECT_EQ(std::string(out.begin(), out.begin() + k), "IMPS");
  // seed 003 Compact: ABCDEFGHIJ without B, F, G, I -> ACDEHJ (flags 1 0 1 1 1 0 0 1 0 1).
  const std::vector<std::int32_t> letters = {'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'};
  const std::vector<std::uint8_t> flags = {1, 0, 1, 1, 1, 0, 0, 1, 0, 1};
  std::vector<std::int32_t> kept(letters.size());
  k = tessera::compact_flagged(letters.data(), flags.data(), letters.size(), kept.data(), {.variant = "cpu_openmp"});
  EXPECT_EQ(std::string(kept.begin(), kept.begin() + k), "ACDEHJ");
  // seed 003 Map: 2x.
  const std::vector<float> v = {0, 1, 2, 127};
  std::vector<float> y(v.size());
  tessera::transform(v.data(), v.size(), y.data(), {.fn = MapFn::twice, .variant = "cpu_reference"});
  EXPECT_EQ(y, (std::vector<float>{0, 2, 4, 254}));
  // seed 003 absolute_diff, with out[0] = |in[0]|.
  const std::vector<std::int32_t> a = {5, 2, 3, 4, 1, 8, 3, 1, 3, 1, 1, 3, 7, 5, 2};
  std::vector<std::uint32_t> d(a.size());
  tessera::adjacent_difference(a.data(), a.size(), d.data(), {.variant = "cpu_openmp"});
  EXPECT_EQ(d, (std::vector<std::uint32_t>{5, 3, 1, 1, 3, 7, 5, 2, 2, 2, 0, 2, 4, 2, 3}));
}

TEST(ComposeSemantics, AbsoluteDifferenceOfExtremeIntegersIsExact) {
  const std::vector<std::int32_t> x = {INT32_MAX, INT32_MIN, INT32_MAX};
  std::vector<std::uint32_t> d(3);
  tessera::adjacent_difference(x.data(), x.size(), d.data(), {.variant = "cpu_reference"});
  EXPECT_EQ(d, (std::vector<std::uint32_t>{2147483647u, 4294967295u, 4294967295u}));
}

TEST(ComposeSemantics, RunLengthEncode) {
  const std::vector<std::int64_t> x = {7, 7, 7, 1, 2, 2, 7, 7};
  std::vector<std::int64_t> keys(x.size()), lengths(x.size());
  for (const char* v : {"cpu_reference", "cpu_openmp"}) {
    const auto r = tessera::run_length_encode(x.data(), x.size(), keys.data(), lengths.data(), {.variant = v});
    ASSERT_EQ(r, 4) << v;
    EXPECT_EQ(std::vector<std::int64_t>(keys.begin(), keys.begin() + r), (std::vector<std::int64_t>{7, 1, 2, 7})) << v;
    EXPECT_EQ(std::vector<std::int64_t>(lengths.begin(), lengths.begin() + r), (std::vector<std::int64_t>{3, 1, 2, 2}))
        << v;
  }
}

TEST(ComposeSemantics, UniqueTreatsEveryNaNAsItsOwnRun) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {nan, nan, 1.0f, 1.0f, -0.0f, 0.0f};
  std::vector<float> out(x.size());
  const auto k = tessera::unique(x.data(), x.size(), out.data(), {.variant = "cpu_reference"});
  ASSERT_EQ(k, 4);
  EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]));
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_TRUE(out[3] == 0.0f && std::signbit(out[3])) << "-0 starts the run, +0 joins it";
}

// ---- generators ---------------------------------------------------------------

TEST(ComposeInputs, RunsHaveTheRequestedHeadRate) {
  constexpr std::size_t n = 1 << 20;
  for (double p : {0.5, 0.1, 0.01}) {
    std::vector<std::int32_t> x(n);
    tessera::harness::fill_runs(x.data(), Dtype::i32, n, 7, p);
    std::size_t heads = 1;
    for (std::size_t i = 1; i < n; ++i) heads += x[i] != x[i - 1];
    EXPECT_NEAR(double(heads) / n, p, 0.05 * p + 0.002) << "head probability " << p;
    std::vector<std::int32_t> again(n);
    tessera::harness::fill_runs(again.data(), Dtype::i32, n, 7, p);
    EXPECT_EQ(x, again) << "seeded: the same runs every time";
  }
}

TEST(ComposeInputs, ThresholdSelectsTheRequestedFraction) {
  constexpr std::size_t n = 1 << 20;
  std::vector<float> x(n);
  tessera::harness::fill_random(x.data(), n, 3, tessera::harness::Distribution::uniform);
  for (double f : {0.05, 0.5, 0.95}) {
    const auto bits = tessera::harness::threshold_for_fraction(x.data(), Dtype::f32, n, f);
    float t;
    std::memcpy(&t, &bits, 4);
    const auto above = std::count_if(x.begin(), x.end(), [&](float v) { return v > t; });
    EXPECT_NEAR(double(above) / n, f, 0.01) << "fraction " << f;
  }
}

TEST(ComposeInputs, FlagsAndZerosHaveTheRequestedRate) {
  constexpr std::size_t n = 1 << 20;
  std::vector<std::uint8_t> flags(n);
  tessera::harness::fill_flags(flags.data(), n, 5, 0.3);
  const auto set = std::count_if(flags.begin(), flags.end(), [](std::uint8_t f) { return f != 0; });
  EXPECT_NEAR(double(set) / n, 0.3, 0.01);
  EXPECT_GT(std::count_if(flags.begin(), flags.end(), [](std::uint8_t f) { return f > 1; }), 0)
      << "set flags take values other than 1";
  std::vector<std::int32_t> x(n);
  tessera::harness::fill_random(x.data(), n, 5, tessera::harness::Distribution::uniform);
  tessera::harness::zero_fraction(x.data(), Dtype::i32, n, 5, 0.25);
  const auto nonzero = std::count_if(x.begin(), x.end(), [](std::int32_t v) { return v != 0; });
  EXPECT_NEAR(double(nonzero) / n, 0.25, 0.01);
}

// ---- tables and registry --------------------------------------------------------

TEST(ComposeTables, EveryFamilyIsRegisteredWithAReferenceAtStepZero) {
  for (Family f : tessera::compose_impl::ALL_FAMILIES) {
    const auto name = tessera::compose_impl::to_string(f);
    const auto* pattern = tessera::find_pattern(name);
    ASSERT_NE(pattern, nullptr) << name;
    const auto vs = tessera::compose_impl::variants(f);
    ASSERT_GE(vs.size(), 2u);
    EXPECT_EQ(vs[0].info.name, "cpu_reference");
    EXPECT_EQ(vs[0].info.step, 0);
    for (std::size_t i = 1; i < vs.size(); ++i) {
      EXPECT_LE(vs[i - 1].info.step, vs[i].info.step) << name << ": ladder order";
      EXPECT_FALSE(vs[i].info.adds.empty()) << name << "/" << vs[i].info.name;
      EXPECT_EQ(vs[i].info.pattern, name);
    }
  }
}

TEST(ComposeTables, HeadlineBenchHasOneProblemPerFamily) {
  tessera::harness::RunOptions o;
  o.headline = true;
  for (Family f : tessera::compose_impl::ALL_FAMILIES) {
    const auto* pattern = tessera::find_pattern(tessera::compose_impl::to_string(f));
    ASSERT_NE(pattern, nullptr);
    EXPECT_EQ(pattern->bench_problems(o).size(), 1u);
    EXPECT_FALSE(pattern->verify_problems(o).empty());
  }
}

// The policy names only rows of the product ladder that take the call, never a
// tuning row; and every PRODUCT row is the pick of some call (else it belongs
// to the lab).
TEST(ComposePolicy, PicksAreProductRowsAndEveryProductRowIsPicked) {
  std::map<std::string, std::set<std::string_view>> picked;
  for (bool gpu : {false, bool(TESSERA_HAVE_CUDA)})
    for (Spec s : all_specs()) {
      s.n = 1000;
      const std::string_view name = tessera::compose_impl::default_variant(s, gpu);
      SCOPED_TRACE(::testing::Message() << spec_name(s) << (gpu ? " gpu" : " cpu") << " -> " << name);
      const auto* v = tessera::compose_impl::find_variant(s.family, name);
      ASSERT_NE(v, nullptr);
      EXPECT_TRUE(v->supports(s));
      EXPECT_NE(v->info.role, tessera::Role::tuning);
      EXPECT_NE(v->info.role, tessera::Role::vendor);
      picked[std::string(tessera::compose_impl::to_string(s.family))].insert(name);
    }
  for (Family f : tessera::compose_impl::ALL_FAMILIES)
    for (const auto& v : tessera::compose_impl::variants(f)) {
      EXPECT_NE(v.info.role, tessera::Role::tuning) << v.info.pattern << "/" << v.info.name << ": a lab row";
      if (v.info.role == tessera::Role::product) {
        EXPECT_TRUE(picked[std::string(v.info.pattern)].count(v.info.name))
            << v.info.pattern << "/" << v.info.name << " is PRODUCT but no call picks it";
      }
    }
}

// ---- the public API: the CPU rungs by name, and its errors ------------------------

TEST(ComposeApi, RejectsBadArgumentsBeforeWriting) {
  std::vector<float> x(100, 1.0f), y(100, -7.0f);
  const tessera::PredicateOptions<float> positive{.pred = tessera::greater_than(0.f), .variant = "cpu_reference"};
  const tessera::PredicateOptions<float> nonzero{.pred = tessera::nonzero<float>(), .variant = "cpu_reference"};
  const tessera::CompactOptions cpu{.variant = "cpu_reference"};
  auto untouched = [&] {
    for (float v : y)
      if (v != -7.0f) return false;
    return true;
  };
  EXPECT_THROW(tessera::compact_if<float>(nullptr, 10, y.data(), positive), tessera::Error);
  EXPECT_THROW(tessera::compact_if<float>(x.data(), 10, nullptr, positive), tessera::Error);
  EXPECT_THROW(tessera::compact_if(x.data(), 10, x.data() + 5, positive), tessera::Error)
      << "overlapping input and output";
  EXPECT_THROW(tessera::compact_if(x.data(), 10, y.data(), {.pred = tessera::even<float>(), .variant = "cpu_reference"}),
               tessera::Error)
      << "even is for integers";
  EXPECT_THROW(tessera::compact_if(x.data(), 10, y.data(), {.variant = "no_such_rung"}), tessera::Error);
  EXPECT_THROW(tessera::compact_if_into(x.data(), 10, y.data(), nullptr, nonzero), tessera::Error) << "null count";
  EXPECT_THROW(
      tessera::compact_if_into(x.data(), 10, y.data(), reinterpret_cast<std::int64_t*>(y.data() + 4), nonzero),
      tessera::Error)
      << "count inside the output";
  EXPECT_THROW(tessera::compact_flagged<float>(x.data(), nullptr, 10, y.data(), cpu), tessera::Error);
  EXPECT_THROW(tessera::adjacent_difference(x.data(), 10, reinterpret_cast<float*>(x.data() + 1),
                                            {.variant = "cpu_reference"}),
               tessera::Error)
      << "adjacent_difference may not run in place";
  EXPECT_THROW(tessera::transform(x.data(), 10, x.data() + 1, {.variant = "cpu_reference"}), tessera::Error)
      << "map: partial overlap";
  std::vector<std::int64_t> keys(10), lengths(10);
  EXPECT_THROW(tessera::run_length_encode(keys.data(), 10, keys.data(), lengths.data(), cpu), tessera::Error);
  EXPECT_THROW(tessera::run_length_encode(keys.data(), 10, lengths.data(), lengths.data(), cpu), tessera::Error)
      << "keys and lengths overlap";
  EXPECT_TRUE(untouched());
}

// An unknown variant's error names every variant of the pattern (the ladder's
// one message), and so does the workspace query.
TEST(ComposeApi, UnknownVariantListsTheLadder) {
  std::vector<float> x(10, 1.0f), y(10);
  try {
    tessera::unique(x.data(), x.size(), y.data(), {.variant = "no_such_rung"});
    ADD_FAILURE() << "no error";
  } catch (const tessera::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tessera::unique: no variant named 'no_such_rung' (variants: cpu_reference, cpu_openmp"),
              std::string::npos)
        << what;
  }
  EXPECT_THROW(tessera::unique_workspace_bytes<float>(10, {.variant = "no_such_rung"}), tessera::Error);
}

// The CPU rungs need no scratch; a caller's workspace is taken (host memory)
// and a null one is fine.
TEST(ComposeApi, CpuRungsTakeACallersWorkspace) {
  std::vector<std::int32_t> x = {1, 1, 2, 3, 3, 3};
  std::vector<std::int32_t> keys(x.size());
  std::vector<std::int64_t> lengths(x.size());
  EXPECT_EQ(tessera::run_length_encode_workspace_bytes<std::int32_t>(x.size(), {.variant = "cpu_openmp"}), 0u);
  std::vector<unsigned char> ws(64);
  EXPECT_EQ(tessera::run_length_encode(x.data(), x.size(), keys.data(), lengths.data(),
                                       {.variant = "cpu_openmp", .workspace = {ws.data(), ws.size()}}),
            3);
  EXPECT_EQ(lengths[2], 3);
}

TEST(ComposeApi, EmptyInputAndInPlaceMap) {
  std::vector<float> x = {1, 2, 3};
  EXPECT_EQ(tessera::compact_if<float>(nullptr, 0, nullptr, {.variant = "cpu_openmp"}), 0);
  EXPECT_EQ(tessera::unique<float>(nullptr, 0, nullptr, {.variant = "cpu_reference"}), 0);
  tessera::transform(x.data(), x.size(), x.data(), {.fn = MapFn::square, .variant = "cpu_openmp"});
  EXPECT_EQ(x, (std::vector<float>{1, 4, 9}));
}

#if !TESSERA_HAVE_CUDA
TEST(ComposeApi, CpuBuildDefaultsToCpuRungs) {
  std::vector<std::int32_t> x(1000);
  std::iota(x.begin(), x.end(), 0);
  std::vector<std::int32_t> y(x.size());
  EXPECT_EQ(tessera::compact_if(x.data(), x.size(), y.data(), {.pred = tessera::even<std::int32_t>()}), 500);
  EXPECT_EQ(y[1], 2);
  EXPECT_EQ(tessera::compose_default_variant("compact", Dtype::i32, 1000), "cpu_openmp");
  EXPECT_EQ(tessera::compose_default_variant("find_unique", Dtype::i32, 1000), "cpu_reference");
}
#endif

}  // namespace
