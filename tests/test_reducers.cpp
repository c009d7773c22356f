// The reducers of src/common/reducers.hpp on the host: the same arithmetic the
// CUDA rungs run (TESSERA_HD), checked against exact or long double answers.
//
// Must not be compiled with fast-math (neither must the reducers).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "tessera/blocks/reducers.hpp"
#include "harness/generate.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using tessera_test::all_combos;
using tessera_test::Combo;
using tessera_test::documented_supported;

// ---- exact arithmetic on float/double values ---------------------------------

// A fixed-point two's-complement integer wide enough to hold any sum of a
// few thousand doubles exactly: bit 0 has weight 2^kMinExp (below the
// smallest subnormal's last bit), the top limb covers 2^1152.
class ExactSum {
 public:
  static constexpr int kMinExp = -1152;
  static constexpr int kLimbs = 72;  // 2304 bits

  void add(double x) { accumulate(x, false); }
  void sub(double x) { accumulate(x, true); }
  bool is_zero() const {
    return std::all_of(limb_.begin(), limb_.end(), [](std::uint32_t v) { return v == 0; });
  }
  bool negative() const { return (limb_[kLimbs - 1] >> 31) != 0; }

  // The value, rounded to long double (for magnitudes and messages).
  long double value() const {
    std::array<std::uint32_t, kLimbs> mag = limb_;
    const bool neg = negative();
    if (neg) {  // two's complement negation
      std::uint64_t carry = 1;
      for (auto& v : mag) {
        const std::uint64_t s = static_cast<std::uint64_t>(static_cast<std::uint32_t>(~v)) + carry;
        v = static_cast<std::uint32_t>(s);
        carry = s >> 32;
      }
    }
    long double r = 0;
    for (int i = kLimbs - 1; i >= 0; --i)
      if (mag[static_cast<std::size_t>(i)] != 0)
        r += std::ldexp(static_cast<long double>(mag[static_cast<std::size_t>(i)]), 32 * i + kMinExp);
    return neg ? -r : r;
  }

 private:
  void accumulate(double x, bool subtract) {
    ASSERT_TRUE(std::isfinite(x)) << "ExactSum takes finite values, got " << x;
    if (x == 0) return;
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);  // |x| = f * 2^e, f in [0.5, 1)
    const auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));  // exact: 53 bits
    const int pos = e - 53 - kMinExp;                                // |x| = m * 2^(pos + kMinExp)
    ASSERT_GE(pos, 0);
    unsigned __int128 chunk = static_cast<unsigned __int128>(m) << (pos % 32);
    const bool neg = (x < 0) != subtract;
    std::uint64_t carry = 0;  // carry (adding) or borrow (subtracting)
    for (int i = pos / 32; i < kLimbs; ++i) {
      const auto piece = static_cast<std::uint64_t>(chunk & 0xFFFFFFFFu);
      chunk >>= 32;
      auto& limb = limb_[static_cast<std::size_t>(i)];
      if (!neg) {
        const std::uint64_t s = static_cast<std::uint64_t>(limb) + piece + carry;
        limb = static_cast<std::uint32_t>(s);
        carry = s >> 32;
      } else {
        const std::uint64_t sub = piece + carry;
        carry = static_cast<std::uint64_t>(limb) < sub ? 1 : 0;
        limb = static_cast<std::uint32_t>(static_cast<std::uint64_t>(limb) + (carry << 32) - sub);
      }
      if (chunk == 0 && carry == 0) break;
    }
  }

  std::array<std::uint32_t, kLimbs> limb_{};
};

TEST(ExactSum, IsExactAndCanBeNonZero) {
  ExactSum a;
  a.add(1.0);
  a.add(0x1.0p-100);
  a.sub(1.0);
  EXPECT_FALSE(a.is_zero());
  EXPECT_EQ(a.value(), 0x1.0p-100L);

  ExactSum b;
  b.add(0x1.0p1000);
  b.add(-3.0);
  b.sub(0x1.0p1000);
  b.add(3.0);
  EXPECT_TRUE(b.is_zero());

  ExactSum c;
  c.sub(2.5);
  c.add(std::numeric_limits<double>::denorm_min());
  EXPECT_TRUE(c.negative());
  EXPECT_EQ(c.value(), -2.5L);  // denorm_min is far below long double's precision here

  ExactSum d;
  d.add(std::numeric_limits<double>::denorm_min());
  d.sub(std::numeric_limits<double>::denorm_min());
  d.add(-std::numeric_limits<double>::max());
  d.add(std::numeric_limits<double>::max());
  EXPECT_TRUE(d.is_zero());

  // Borrow across limbs: 2^64 - 2^-64 is not 2^64.
  ExactSum e;
  e.add(0x1.0p64);
  e.sub(0x1.0p-64);
  e.sub(0x1.0p64);
  EXPECT_TRUE(e.negative());
  EXPECT_EQ(e.value(), -0x1.0p-64L);
}

// ---- error-free transformations ----------------------------------------------

// A random F with a random sign, a random full mantissa and a binary exponent
// (of its leading bit) uniform in [lo, hi]; hi = lo gives one binade.
template <class F>
F random_value(std::mt19937_64& rng, int lo, int hi) {
  constexpr int digits = std::numeric_limits<F>::digits;
  const int e = std::uniform_int_distribution<int>(lo, hi)(rng);
  const std::uint64_t mant = (rng() >> (64 - digits)) | (std::uint64_t(1) << (digits - 1));
  const F v = std::ldexp(static_cast<F>(mant), e - (digits - 1));
  return (rng() & 1) ? -v : v;
}

enum class PairKind { same_scale, wide, huge_small, cancellation, subnormal, ties };

template <class F>
std::pair<F, F> random_pair(std::mt19937_64& rng, PairKind kind) {
  constexpr int emax = std::numeric_limits<F>::max_exponent - 8;  // leaves room: a + b stays finite
  constexpr int emin = std::numeric_limits<F>::min_exponent;      // normal numbers
  constexpr int digits = std::numeric_limits<F>::digits;
  switch (kind) {
    case PairKind::same_scale: return {random_value<F>(rng, -4, 4), random_value<F>(rng, -4, 4)};
    case PairKind::wide: return {random_value<F>(rng, emin, emax), random_value<F>(rng, emin, emax)};
    case PairKind::huge_small: {
      const F big = random_value<F>(rng, emax / 2, emax);
      const F small = random_value<F>(rng, emin, -emax / 2);
      return (rng() & 1) ? std::pair{big, small} : std::pair{small, big};
    }
    case PairKind::cancellation: {
      // b close to -a: a few ulps or a few bits of a apart.
      const F a = random_value<F>(rng, -30, 30);
      const int shift = std::uniform_int_distribution<int>(1, digits + 8)(rng);
      const F d = random_value<F>(rng, 0, 0);
      return {a, -a + std::ldexp(a, -shift) * d};
    }
    case PairKind::subnormal: {
      const F tiny = std::numeric_limits<F>::denorm_min();
      const auto k = static_cast<F>(rng() >> (64 - digits + 2));
      const auto j = static_cast<F>(rng() >> (64 - digits + 2));
      return {tiny * k, (rng() & 1) ? -tiny * j : random_value<F>(rng, emin, emin + 4)};
    }
    case PairKind::ties: {
      // b is exactly half an ulp of a (or a small multiple of it): the round
      // to nearest even case.
      const F a = random_value<F>(rng, -10, 10);
      int e = 0;
      std::frexp(a, &e);
      const F half_ulp = std::ldexp(F(1), e - digits - 1);
      const F m = static_cast<F>(std::uniform_int_distribution<int>(1, 5)(rng));
      return {a, (rng() & 1) ? half_ulp * m : -half_ulp * m};
    }
  }
  return {F(1), F(1)};
}

constexpr PairKind kPairKinds[] = {PairKind::same_scale, PairKind::wide,      PairKind::huge_small,
                                   PairKind::cancellation, PairKind::subnormal, PairKind::ties};

// a + b == s + e exactly, and |e| <= ulp(s) / 2 (s + e rounds back to s).
template <class F>
::testing::AssertionResult error_free(F a, F b, F s, F e) {
  ExactSum x;
  x.add(a);
  x.add(b);
  x.sub(s);
  x.sub(e);
  if (!x.is_zero())
    return ::testing::AssertionFailure() << "a=" << tessera_test::show(a) << " b=" << tessera_test::show(b)
                                         << ": s=" << tessera_test::show(s) << " e=" << tessera_test::show(e)
                                         << " misses a + b by " << static_cast<double>(x.value());
  volatile F back = s + e;  // volatile: one float/double rounding, nothing wider
  if (back != s)
    return ::testing::AssertionFailure() << "e=" << tessera_test::show(e) << " is more than half an ulp of s="
                                         << tessera_test::show(s);
  if (s != static_cast<F>(a + b))
    return ::testing::AssertionFailure() << "s is not the rounded sum";
  return ::testing::AssertionSuccess();
}

template <class F>
void check_two_sum(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (PairKind kind : kPairKinds) {
    int failures = 0;
    for (int i = 0; i < 20000 && failures < 5; ++i) {
      auto [a, b] = random_pair<F>(rng, kind);
      F s, e;
      detail::two_sum(a, b, s, e);
      const auto r = error_free(a, b, s, e);
      if (!r) ++failures;
      EXPECT_TRUE(r) << "two_sum, pair kind " << static_cast<int>(kind);

      // fast_two_sum needs |a| >= |b|.
      F big = a, small = b;
      if (std::fabs(big) < std::fabs(small)) std::swap(big, small);
      detail::fast_two_sum(big, small, s, e);
      const auto r2 = error_free(big, small, s, e);
      if (!r2) ++failures;
      EXPECT_TRUE(r2) << "fast_two_sum, pair kind " << static_cast<int>(kind);
    }
  }
}

TEST(TwoSum, ErrorFreeFloat) { check_two_sum<float>(1); }
TEST(TwoSum, ErrorFreeDouble) { check_two_sum<double>(2); }

TEST(TwoSum, KnownCases) {
  float s, e;
  detail::two_sum(1.0f, 0x1.0p-30f, s, e);  // the small one is lost in s, kept in e
  EXPECT_EQ(s, 1.0f);
  EXPECT_EQ(e, 0x1.0p-30f);
  detail::two_sum(0x1.0p-30f, 1.0f, s, e);  // either order
  EXPECT_EQ(s, 1.0f);
  EXPECT_EQ(e, 0x1.0p-30f);
  detail::two_sum(1e30f, -1e30f, s, e);
  EXPECT_EQ(s, 0.0f);
  EXPECT_EQ(e, 0.0f);
  detail::fast_two_sum(0.0f, 3.0f, s, e);  // a == 0 is allowed
  EXPECT_EQ(s, 3.0f);
  EXPECT_EQ(e, 0.0f);
  detail::fast_two_sum(1.0f, -0x1.0p-25f, s, e);
  EXPECT_EQ(s, 1.0f);
  EXPECT_EQ(e, -0x1.0p-25f);
}

// ---- folds -----------------------------------------------------------------

template <class R>
typename R::acc_t fold(const typename R::in_t* x, std::size_t n) {
  typename R::acc_t a = R::identity();
  for (std::size_t i = 0; i < n; ++i) R::add(a, x[i]);
  return a;
}
template <class R>
typename R::acc_t fold(const std::vector<typename R::in_t>& x) {
  return fold<R>(x.data(), x.size());
}

// The exact value of a state.
inline void add_state(ExactSum& x, const KahanState& k) {
  x.add(k.s);
  x.sub(k.c);
}
inline void add_state(ExactSum& x, const DFloatState& d) {
  x.add(d.hi);
  x.add(d.lo);
}
inline void add_state(ExactSum& x, double v) { x.add(v); }
inline void add_state(ExactSum& x, float v) { x.add(v); }
inline void sub_state(ExactSum& x, const KahanState& k) {
  x.sub(k.s);
  x.add(k.c);
}
inline void sub_state(ExactSum& x, const DFloatState& d) {
  x.sub(d.hi);
  x.sub(d.lo);
}
inline void sub_state(ExactSum& x, double v) { x.sub(v); }
inline void sub_state(ExactSum& x, float v) { x.sub(v); }

template <class S>
long double state_value(const S& s) {
  ExactSum x;
  add_state(x, s);
  return x.value();
}

long double exact_sum(const std::vector<float>& x) {
  ExactSum s;
  for (float v : x) s.add(v);
  return s.value();
}
long double abs_sum(const std::vector<float>& x) {
  long double a = 0;
  for (float v : x) a += std::fabs(static_cast<long double>(v));
  return a;
}
long double ulp_of(float v) {
  int e = 0;
  std::frexp(v, &e);
  return std::ldexp(1.0L, e - 24);
}

// ---- Kahan and double-float on adversarial sequences -----------------------

TEST(CompensatedSums, BigThenManyOnes) {
  // 1e8 then 10^6 ones: each 1 is below half an ulp (8) of 1e8, so a plain
  // float sum never moves; the exact sum 101000000 is a float.
  std::vector<float> x(1000001, 1.0f);
  x[0] = 1e8f;
  const float plain = PlainSum<float, float>::finish(fold<PlainSum<float, float>>(x));
  EXPECT_EQ(plain, 1e8f) << "the sequence is supposed to defeat a plain float sum";
  EXPECT_EQ(KahanSum::finish(fold<KahanSum>(x)), 101000000.0f);
  EXPECT_EQ(DFloatSum::finish(fold<DFloatSum>(x)), 101000000.0f);
  EXPECT_EQ((PlainSum<float, double>::finish(fold<PlainSum<float, double>>(x))), 101000000.0f);
}

TEST(CompensatedSums, OneThenManyTiny) {
  // 1 then 10^6 values of 2^-30 (below half an ulp of 1): true sum 1 + 10^6 * 2^-30.
  std::vector<float> x(1000001, 0x1.0p-30f);
  x[0] = 1.0f;
  const long double exact = exact_sum(x);
  const float plain = PlainSum<float, float>::finish(fold<PlainSum<float, float>>(x));
  EXPECT_EQ(plain, 1.0f);
  for (float got : {KahanSum::finish(fold<KahanSum>(x)), DFloatSum::finish(fold<DFloatSum>(x))}) {
    EXPECT_LE(std::fabs(got - exact), ulp_of(static_cast<float>(exact)) / 2)
        << "got " << tessera_test::show(got) << ", exact " << static_cast<double>(exact);
  }
}

TEST(CompensatedSums, RepeatedTenth) {
  // 10^6 times 0.1f: a plain float sum drifts by hundreds; compensated sums
  // are correctly rounded (error <= half an ulp, plus a hair for Kahan).
  std::vector<float> x(1000000, 0.1f);
  const long double exact = exact_sum(x);
  const long double half_ulp = ulp_of(static_cast<float>(exact)) / 2;
  const float plain = PlainSum<float, float>::finish(fold<PlainSum<float, float>>(x));
  EXPECT_GT(std::fabs(plain - exact), 100.0L);
  const float k = KahanSum::finish(fold<KahanSum>(x));
  const float d = DFloatSum::finish(fold<DFloatSum>(x));
  EXPECT_LE(std::fabs(k - exact), 2 * half_ulp) << tessera_test::show(k);
  EXPECT_LE(std::fabs(d - exact), half_ulp) << tessera_test::show(d);
}

TEST(CompensatedSums, Cancellation) {
  // (1e8, 1, -1e8) repeated: the exact sum is the number of ones; a plain
  // float sum loses every 1. Double-float keeps the 1 in its low word and is
  // exact here. Kahan only guarantees its classical bound,
  // |error| <= (2u + n u^2) * sum|x| + u |sum| (Higham, Thm 4.8).
  std::vector<float> x;
  for (int i = 0; i < 1000; ++i) x.insert(x.end(), {1e8f, 1.0f, -1e8f});
  const long double exact = exact_sum(x);
  ASSERT_EQ(exact, 1000.0L);
  EXPECT_EQ((PlainSum<float, float>::finish(fold<PlainSum<float, float>>(x))), 0.0f);
  EXPECT_EQ(DFloatSum::finish(fold<DFloatSum>(x)), 1000.0f);
  const long double u = 0x1.0p-24L;
  const auto n = static_cast<long double>(x.size());
  const float k = KahanSum::finish(fold<KahanSum>(x));
  EXPECT_LE(std::fabs(k - exact), (2 * u + n * u * u) * abs_sum(x) + u * std::fabs(exact));

  // Huge/small alternation far beyond float's span: (1e30, 1, -1e30, 1).
  std::vector<float> y;
  for (int i = 0; i < 2500; ++i) y.insert(y.end(), {1e30f, 1.0f, -1e30f, 1.0f});
  EXPECT_EQ(DFloatSum::finish(fold<DFloatSum>(y)), 5000.0f);
  EXPECT_LE((PlainSum<float, double>::finish(fold<PlainSum<float, double>>(y))), 1.0f)
      << "even a double accumulator loses (almost) all these ones (sanity check of the sequence)";
}

TEST(CompensatedSums, AdversarialSequencesWithinDocumentedAccuracy) {
  // Random sequences built to cancel: large values with their negations
  // interleaved with small ones, in random order. Double-float meets
  // |error| <= u|S| + 2^-44 (16 + 4 sqrt(n)) sum|x|; Kahan meets its bound.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<float> x;
    for (int i = 0; i < 5000; ++i) {
      const float big = random_value<float>(rng, 10, 40);
      x.push_back(big);
      x.push_back(random_value<float>(rng, -20, 0));
      x.push_back(-big);
    }
    std::shuffle(x.begin(), x.end(), rng);
    const long double exact = exact_sum(x), a = abs_sum(x);
    const auto n = static_cast<long double>(x.size());
    const long double u = 0x1.0p-24L;
    const float d = DFloatSum::finish(fold<DFloatSum>(x));
    const float k = KahanSum::finish(fold<KahanSum>(x));
    const float plain = PlainSum<float, float>::finish(fold<PlainSum<float, float>>(x));
    EXPECT_LE(std::fabs(d - exact), u * std::fabs(exact) + 0x1.0p-44L * (16 + 4 * std::sqrt(n)) * a)
        << "round " << round << ": dfloat " << d << " exact " << static_cast<double>(exact);
    EXPECT_LE(std::fabs(k - exact), (2 * u + n * u * u) * a + u * std::fabs(exact))
        << "round " << round << ": kahan " << k << " exact " << static_cast<double>(exact);
    // The sequence is hard: a plain float sum is much worse than double-float.
    EXPECT_GT(std::fabs(plain - exact), 100 * std::fabs(d - exact) + u * std::fabs(exact));
  }
}

// ---- accuracy on the harness's random data ----------------------------------

TEST(CompensatedSums, HundredTimesMoreAccurateThanPlainFloat) {
  // 10^6 uniform floats from the harness generator. The errors compared are
  // those of the accumulator states (before the final rounding to float), so
  // the comparison measures accumulation, not the last rounding.
  constexpr std::size_t n = 1000000;
  std::vector<float> x(n);
  for (std::uint64_t seed : {11u, 12u, 13u}) {
    harness::fill_random(x.data(), n, seed, harness::Distribution::uniform);
    const long double exact = exact_sum(x);
    const long double err_plain = std::fabs(fold<PlainSum<float, float>>(x) - exact);
    const long double err_kahan = std::fabs(state_value(fold<KahanSum>(x)) - exact);
    const long double err_dfloat = std::fabs(state_value(fold<DFloatSum>(x)) - exact);
    const long double err_double = std::fabs(fold<PlainSum<float, double>>(x) - exact);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ": plain " << static_cast<double>(err_plain) << ", kahan "
                                      << static_cast<double>(err_kahan) << ", dfloat "
                                      << static_cast<double>(err_dfloat) << ", double "
                                      << static_cast<double>(err_double));
    EXPECT_GT(err_plain, 0.0L);
    EXPECT_LE(100 * err_kahan, err_plain);
    EXPECT_LE(100 * err_dfloat, err_plain);
    EXPECT_LE(100 * err_double, err_plain);
    // And the finished results are faithful (within one ulp of the exact sum).
    const long double ulp = ulp_of(static_cast<float>(exact));
    EXPECT_LE(std::fabs(KahanSum::finish(fold<KahanSum>(x)) - exact), ulp);
    EXPECT_LE(std::fabs(DFloatSum::finish(fold<DFloatSum>(x)) - exact), ulp);
  }
}

// ---- combine -------------------------------------------------------------

// |value(combine(a, b)) - (value(a) + value(b))|, exactly, and |a| + |b|.
template <class R>
std::pair<long double, long double> combine_error(const typename R::acc_t& a, const typename R::acc_t& b) {
  ExactSum err;
  add_state(err, R::combine(a, b));
  sub_state(err, a);
  sub_state(err, b);
  return {std::fabs(err.value()), std::fabs(state_value(a)) + std::fabs(state_value(b))};
}

// Random partial states: folds of random pieces, sometimes of opposite sign
// and nearly equal magnitude (catastrophic cancellation in combine).
std::vector<float> random_piece(std::mt19937_64& rng, std::size_t len, int lo, int hi, float bias) {
  std::vector<float> v(len);
  for (auto& x : v) x = random_value<float>(rng, lo, hi) + bias;
  return v;
}

TEST(Combine, ErrorWithinFewUlpsOfTheAccumulator) {
  std::mt19937_64 rng(21);
  long double worst_d = 0, worst_k = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::size_t la = 1 + rng() % 300, lb = 1 + rng() % 300;
    const int scale_a = static_cast<int>(rng() % 40) - 20;
    const int scale_b = (i % 3 == 0) ? scale_a : static_cast<int>(rng() % 40) - 20;
    auto pa = random_piece(rng, la, scale_a - 2, scale_a, std::ldexp(1.0f, scale_a));
    auto pb = random_piece(rng, lb, scale_b - 2, scale_b, std::ldexp(1.0f, scale_b));
    if (i % 3 == 0) {  // b ~ -a
      pb = pa;
      for (auto& x : pb) x = -x;
      pb.push_back(random_value<float>(rng, scale_a - 30, scale_a - 10));
    }
    {
      const auto [err, mag] = combine_error<DFloatSum>(fold<DFloatSum>(pa), fold<DFloatSum>(pb));
      EXPECT_LE(err, 8 * 0x1.0p-48L * mag) << "dfloat combine, case " << i;
      worst_d = std::max(worst_d, mag > 0 ? err / mag : 0);
    }
    {
      const auto [err, mag] = combine_error<KahanSum>(fold<KahanSum>(pa), fold<KahanSum>(pb));
      EXPECT_LE(err, 8 * 0x1.0p-48L * mag) << "kahan combine, case " << i;
      worst_k = std::max(worst_k, mag > 0 ? err / mag : 0);
    }
    {
      using P = PlainSum<float, double>;
      const double a = fold<P>(pa), b = fold<P>(pb);
      ExactSum e;
      e.add(P::combine(a, b));
      e.sub(a);
      e.sub(b);
      EXPECT_LE(std::fabs(e.value()), 0x1.0p-53L * std::fabs(static_cast<long double>(a) + b))
          << "double combine is one rounding";
    }
  }
  // For the record (in the XML report): the worst relative errors seen, in
  // units of 2^-48.
  RecordProperty("worst_dfloat_combine_err_in_2^-48", std::to_string(static_cast<double>(std::ldexp(worst_d, 48))));
  RecordProperty("worst_kahan_combine_err_in_2^-48", std::to_string(static_cast<double>(std::ldexp(worst_k, 48))));
}

TEST(Combine, WithIdentityPreservesTheValue) {
  std::mt19937_64 rng(22);
  for (int i = 0; i < 500; ++i) {
    const int scale = static_cast<int>(rng() % 60) - 30;
    const auto piece = random_piece(rng, 1 + rng() % 500, scale - 3, scale, 0.0f);
    for (int side = 0; side < 2; ++side) {
      const auto d = fold<DFloatSum>(piece);
      const auto k = fold<KahanSum>(piece);
      const auto dd = side ? DFloatSum::combine(d, DFloatSum::identity()) : DFloatSum::combine(DFloatSum::identity(), d);
      const auto kk = side ? KahanSum::combine(k, KahanSum::identity()) : KahanSum::combine(KahanSum::identity(), k);
      ExactSum ed, ek;
      add_state(ed, dd);
      sub_state(ed, d);
      add_state(ek, kk);
      sub_state(ek, k);
      EXPECT_TRUE(ed.is_zero()) << "dfloat, case " << i << " side " << side;
      EXPECT_TRUE(ek.is_zero()) << "kahan, case " << i << " side " << side;
      EXPECT_EQ(DFloatSum::finish(dd), DFloatSum::finish(d));
      EXPECT_EQ(KahanSum::finish(kk), KahanSum::finish(k));
    }
  }
}

// combine(fold(x[0:k]), fold(x[k:n])) against fold(x): both are sums of the
// same numbers and differ only by accumulation rounding, bounded as in the
// test tolerance with the accumulator's own unit roundoff:
//   double accumulator  2 * 2^-53 (16 + 4 sqrt(n)) sum|x|
//   double-float        2 * 2^-47 (16 + 4 sqrt(n)) sum|x|  (one rounding of
//                        the low word per element, ~2u^2 |partial sum|)
//   Kahan               2 * 2^-24 (16 + 4 sqrt(n)) max|x| + the above
//                        (one rounding of y = x - c per element, ~u |x|)
TEST(Combine, SplitFoldAgreesWithSequentialFold) {
  constexpr std::size_t n = 4096;
  std::vector<float> x(n);
  for (auto dist : {harness::Distribution::uniform, harness::Distribution::small, harness::Distribution::skewed}) {
    harness::fill_random(x.data(), n, 31 + static_cast<int>(dist), dist);
    const long double a = abs_sum(x);
    long double max_abs = 0;
    for (float v : x) max_abs = std::max<long double>(max_abs, std::fabs(v));
    const long double growth = 16 + 4 * std::sqrt(static_cast<long double>(n));
    const long double tol_double = 2 * 0x1.0p-53L * growth * a;
    const long double tol_dfloat = 2 * 0x1.0p-47L * growth * a;
    const long double tol_kahan = 2 * 0x1.0p-24L * growth * max_abs + tol_dfloat;
    for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(17), n / 3, n / 2, n - 1, n}) {
      const float* lo = x.data();
      const float* hi = x.data() + k;
      SCOPED_TRACE(::testing::Message() << "distribution " << harness::to_string(dist) << ", split at " << k);
      {
        using R = DFloatSum;
        const long double split = state_value(R::combine(fold<R>(lo, k), fold<R>(hi, n - k)));
        EXPECT_LE(std::fabs(split - state_value(fold<R>(x))), tol_dfloat);
      }
      {
        using R = KahanSum;
        const long double split = state_value(R::combine(fold<R>(lo, k), fold<R>(hi, n - k)));
        EXPECT_LE(std::fabs(split - state_value(fold<R>(x))), tol_kahan);
      }
      {
        using R = PlainSum<float, double>;
        const long double split = R::combine(fold<R>(lo, k), fold<R>(hi, n - k));
        EXPECT_LE(std::fabs(split - static_cast<long double>(fold<R>(x))), tol_double);
      }
      {
        using R = IntSum<std::int64_t>;
        std::vector<std::int64_t> y(n);
        harness::fill_random(y.data(), n, 41 + k, harness::Distribution::uniform);
        EXPECT_EQ(R::finish(R::combine(fold<R>(y.data(), k), fold<R>(y.data() + k, n - k))), R::finish(fold<R>(y)));
      }
    }
  }
}

// ---- integer sums --------------------------------------------------------

TEST(IntSum, Int64WrapsModulo2To64) {
  using R = IntSum<std::int64_t>;
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(R::finish(fold<R>({max, 1})), min);
  EXPECT_EQ(R::finish(fold<R>({min, -1})), max);
  EXPECT_EQ(R::finish(fold<R>({max, max, 2})), 0);  // 2^64 = 0
  EXPECT_EQ(R::finish(fold<R>({max, max})), -2);
  EXPECT_EQ(R::finish(fold<R>({min, min})), 0);
  EXPECT_EQ(R::finish(fold<R>({max - 5, 3, 2})), max);
  EXPECT_EQ(R::finish(R::combine(fold<R>({max}), fold<R>({max, 3}))), 1);
  EXPECT_EQ(R::finish(R::identity()), 0);
  EXPECT_EQ(R::finish(R::lift(-7)), -7);

  // Random full-range values against 128-bit arithmetic reduced mod 2^64.
  std::mt19937_64 rng(5);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::int64_t> v(1 + rng() % 2000);
    __int128 wide = 0;
    for (auto& x : v) {
      x = static_cast<std::int64_t>(rng());
      wide += x;
    }
    const auto expected = static_cast<std::int64_t>(static_cast<std::uint64_t>(static_cast<unsigned __int128>(wide)));
    EXPECT_EQ(R::finish(fold<R>(v)), expected) << "round " << round;
    const std::size_t k = rng() % v.size();
    EXPECT_EQ(R::finish(R::combine(fold<R>(v.data(), k), fold<R>(v.data() + k, v.size() - k))), expected);
  }
}

TEST(IntSum, Int32WidensExactly) {
  using R = IntSum<std::int32_t>;
  static_assert(std::is_same_v<R::out_t, std::int64_t>);
  constexpr std::int32_t max = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t min = std::numeric_limits<std::int32_t>::min();
  EXPECT_EQ(R::finish(fold<R>({max, max, max})), 3 * std::int64_t(max));
  EXPECT_EQ(R::finish(fold<R>({min, min, min, min, min})), 5 * std::int64_t(min));
  EXPECT_EQ(R::finish(fold<R>({max, 1})), std::int64_t(max) + 1);
  EXPECT_EQ(R::finish(fold<R>({min, -1})), std::int64_t(min) - 1);
  EXPECT_EQ(R::finish(fold<R>({-1})), -1);
  EXPECT_EQ(R::finish(fold<R>({min, max})), -1);

  std::vector<std::int32_t> v(100000);
  harness::fill_random(v.data(), v.size(), 77, harness::Distribution::uniform);
  std::int64_t expected = 0;  // |sum| < 10^5 * 2^31 < 2^63: no overflow
  for (auto x : v) expected += x;
  EXPECT_EQ(R::finish(fold<R>(v)), expected);
  std::vector<std::int32_t> all_max(100000, max);
  EXPECT_EQ(R::finish(fold<R>(all_max)), 100000 * std::int64_t(max));
}

// ---- min / max -----------------------------------------------------------

template <class T>
void check_nan_propagation() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const T values[] = {T(0), T(-0.0), T(1), T(-1), T(1e30), inf, -inf, std::numeric_limits<T>::denorm_min(), nan};
  for (T v : values) {
    EXPECT_TRUE(std::isnan(MinOp<T>::combine(nan, v))) << v;
    EXPECT_TRUE(std::isnan(MinOp<T>::combine(v, nan))) << v;
    EXPECT_TRUE(std::isnan(MaxOp<T>::combine(nan, v))) << v;
    EXPECT_TRUE(std::isnan(MaxOp<T>::combine(v, nan))) << v;
    T a = v;
    MinOp<T>::add(a, nan);
    EXPECT_TRUE(std::isnan(a));
    a = nan;
    MaxOp<T>::add(a, v);
    EXPECT_TRUE(std::isnan(a));
  }
  EXPECT_TRUE(std::isnan(MinOp<T>::combine(MinOp<T>::identity(), nan)));
  EXPECT_TRUE(std::isnan(MaxOp<T>::combine(nan, MaxOp<T>::identity())));
  // A NaN anywhere in a fold wins, whatever comes after it.
  std::mt19937_64 rng(9);
  for (std::size_t pos : {0, 1, 50, 99}) {
    std::vector<T> x(100);
    for (auto& v : x) v = random_value<T>(rng, -5, 5);
    x[pos] = nan;
    EXPECT_TRUE(std::isnan(MinOp<T>::finish(fold<MinOp<T>>(x)))) << "NaN at " << pos;
    EXPECT_TRUE(std::isnan(MaxOp<T>::finish(fold<MaxOp<T>>(x)))) << "NaN at " << pos;
  }
}

TEST(MinMax, PropagateNaNFloat) { check_nan_propagation<float>(); }
TEST(MinMax, PropagateNaNDouble) { check_nan_propagation<double>(); }

template <class T>
T random_element(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return random_value<T>(rng, -20, 20);
  } else {
    return static_cast<T>(rng());
  }
}

template <class T>
void check_min_max_values() {
  std::mt19937_64 rng(sizeof(T) * 31 + std::is_floating_point_v<T>);
  for (int i = 0; i < 20000; ++i) {
    const T a = random_element<T>(rng);
    const T b = (i % 10 == 0) ? a : random_element<T>(rng);
    EXPECT_EQ(MinOp<T>::combine(a, b), std::min(a, b));
    EXPECT_EQ(MinOp<T>::combine(b, a), std::min(a, b));
    EXPECT_EQ(MaxOp<T>::combine(a, b), std::max(a, b));
    EXPECT_EQ(MaxOp<T>::combine(b, a), std::max(a, b));
  }
  // The identities are neutral, including for the extreme values themselves.
  const T lo = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::min();
  const T hi = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  EXPECT_EQ(MinOp<T>::identity(), hi);
  EXPECT_EQ(MaxOp<T>::identity(), lo);
  for (T v : {lo, hi, T(0), T(-3), std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()}) {
    EXPECT_EQ(MinOp<T>::combine(MinOp<T>::identity(), v), v);
    EXPECT_EQ(MinOp<T>::combine(v, MinOp<T>::identity()), v);
    EXPECT_EQ(MaxOp<T>::combine(MaxOp<T>::identity(), v), v);
    EXPECT_EQ(MaxOp<T>::combine(v, MaxOp<T>::identity()), v);
  }
  // Folds pick the extreme element; int32 results widen to int64 unchanged.
  std::vector<T> x(1000);
  for (auto& v : x) v = random_element<T>(rng);
  using Out = reduce_result_t<T>;
  EXPECT_EQ(MinOp<T>::finish(fold<MinOp<T>>(x)), static_cast<Out>(*std::min_element(x.begin(), x.end())));
  EXPECT_EQ(MaxOp<T>::finish(fold<MaxOp<T>>(x)), static_cast<Out>(*std::max_element(x.begin(), x.end())));
  EXPECT_EQ(MinOp<T>::finish(MinOp<T>::identity()), static_cast<Out>(hi));
  EXPECT_EQ(MaxOp<T>::finish(MaxOp<T>::identity()), static_cast<Out>(lo));
}

TEST(MinMax, PickTheRightValueFloat) { check_min_max_values<float>(); }
TEST(MinMax, PickTheRightValueDouble) { check_min_max_values<double>(); }
TEST(MinMax, PickTheRightValueInt32) { check_min_max_values<std::int32_t>(); }
TEST(MinMax, PickTheRightValueInt64) { check_min_max_values<std::int64_t>(); }

TEST(MinMax, Int32ExtremesWiden) {
  EXPECT_EQ(MinOp<std::int32_t>::finish(MinOp<std::int32_t>::identity()), std::int64_t(INT32_MAX));
  EXPECT_EQ(MaxOp<std::int32_t>::finish(MaxOp<std::int32_t>::identity()), std::int64_t(INT32_MIN));
  EXPECT_EQ(MinOp<std::int64_t>::identity(), INT64_MAX);
  EXPECT_EQ(MaxOp<std::int64_t>::identity(), INT64_MIN);
}

// ---- dispatch ------------------------------------------------------------

std::type_index expected_reducer(const Combo& c) {
  switch (c.dtype) {
    case Dtype::f32:
      if (c.op == Op::min) return typeid(MinOp<float>);
      if (c.op == Op::max) return typeid(MaxOp<float>);
      switch (c.accum) {
        case Accum::native: return typeid(PlainSum<float, float>);
        case Accum::f64: return typeid(PlainSum<float, double>);
        case Accum::kahan: return typeid(KahanSum);
        case Accum::dfloat: return typeid(DFloatSum);
      }
      break;
    case Dtype::f64:
      if (c.op == Op::min) return typeid(MinOp<double>);
      if (c.op == Op::max) return typeid(MaxOp<double>);
      return typeid(PlainSum<double, double>);
    case Dtype::i32:
      if (c.op == Op::min) return typeid(MinOp<std::int32_t>);
      if (c.op == Op::max) return typeid(MaxOp<std::int32_t>);
      return typeid(IntSum<std::int32_t>);
    case Dtype::i64:
      if (c.op == Op::min) return typeid(MinOp<std::int64_t>);
      if (c.op == Op::max) return typeid(MaxOp<std::int64_t>);
      return typeid(IntSum<std::int64_t>);
    default: break;  // uint8/uint32: not reduce types
  }
  return typeid(void);
}

TEST(DispatchReducer, EveryCombination) {
  int supported = 0;
  for (const Combo& c : all_combos()) {
    SCOPED_TRACE(tessera_test::combo_name(c));
    int calls = 0;
    std::type_index got = typeid(void);
    bool in_matches = false, out_matches = false;
    const bool ok = dispatch_reducer(c.dtype, c.op, c.accum, [&]<class R>() {
      ++calls;
      got = typeid(R);
      tessera_test::with_type(c.dtype, [&]<class T>() {
        in_matches = std::is_same_v<typename R::in_t, T>;
        out_matches = std::is_same_v<typename R::out_t, reduce_result_t<T>>;
      });
    });
    EXPECT_EQ(ok, documented_supported(c));
    if (ok) {
      ++supported;
      EXPECT_EQ(calls, 1);
      EXPECT_EQ(got, expected_reducer(c)) << "dispatched " << got.name();
      EXPECT_TRUE(in_matches) << "in_t is not the element type";
      EXPECT_TRUE(out_matches) << "out_t is not reduce_result_t of the element type";
    } else {
      EXPECT_EQ(calls, 0) << "the callback ran for an unsupported combination";
    }
  }
  // float sum x 4 accumulators, float min/max, double sum (native, f64),
  // double min/max, int32 and int64 sum/min/max.
  EXPECT_EQ(supported, 16);
}

TEST(DispatchReducer, UnsupportedExamples) {
  auto never = []<class>() { ADD_FAILURE() << "called"; };
  EXPECT_FALSE(dispatch_reducer(Dtype::i32, Op::sum, Accum::kahan, never));
  EXPECT_FALSE(dispatch_reducer(Dtype::i64, Op::sum, Accum::f64, never));
  EXPECT_FALSE(dispatch_reducer(Dtype::f64, Op::sum, Accum::dfloat, never));
  EXPECT_FALSE(dispatch_reducer(Dtype::f64, Op::sum, Accum::kahan, never));
  EXPECT_FALSE(dispatch_reducer(Dtype::f32, Op::min, Accum::kahan, never));
  EXPECT_FALSE(dispatch_reducer(Dtype::f32, Op::max, Accum::f64, never));
  EXPECT_FALSE(dispatch_reducer(Dtype::f64, Op::min, Accum::f64, never));
}

}  // namespace
