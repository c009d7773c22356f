// harness::fill_random: seeded, counter-based, never all zero.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using harness::Distribution;
using harness::fill_random;

constexpr Distribution kDistributions[] = {Distribution::uniform, Distribution::small, Distribution::skewed,
                                           Distribution::constant, Distribution::text};

// n elements of type `t` as raw bytes.
std::vector<unsigned char> generate(Dtype t, std::size_t n, std::uint64_t seed, Distribution d) {
  std::vector<unsigned char> bytes(n * size_of(t) + 1, 0xCD);  // one guard byte
  fill_random(bytes.data(), t, n, seed, d);
  EXPECT_EQ(bytes.back(), 0xCD) << "wrote past the end";
  bytes.pop_back();
  return bytes;
}

template <class T>
std::vector<T> generate(std::size_t n, std::uint64_t seed, Distribution d) {
  std::vector<T> v(n);
  fill_random(v.data(), n, seed, d);
  return v;
}

std::string label(Dtype t, Distribution d) {
  return std::string(to_string(t)) + "/" + std::string(harness::to_string(d));
}

bool all_zero(const std::vector<unsigned char>& bytes, Dtype t) {
  // Element-wise: -0.0 counts as zero too.
  bool zero = true;
  tessera_test::with_type(t, [&]<class T>() {
    const std::size_t n = bytes.size() / sizeof(T);
    for (std::size_t i = 0; i < n && zero; ++i) {
      T v;
      std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
      zero = v == T(0);
    }
  });
  return zero;
}

TEST(Generate, SameSeedSameData) {
  for (Dtype t : tessera_test::kDtypes)
    for (Distribution d : kDistributions)
      for (std::size_t n : {1, 2, 1000, 100003}) {
        SCOPED_TRACE(label(t, d) + " n=" + std::to_string(n));
        EXPECT_EQ(generate(t, n, 42, d), generate(t, n, 42, d));
      }
}

TEST(Generate, DifferentSeedDifferentData) {
  for (Dtype t : tessera_test::kDtypes)
    for (Distribution d : {Distribution::uniform, Distribution::small, Distribution::skewed})
      for (std::uint64_t seed : {0u, 1u, 2u, 1000u}) {
        SCOPED_TRACE(label(t, d) + " seed=" + std::to_string(seed));
        const auto a = generate(t, 1000, seed, d);
        const auto b = generate(t, 1000, seed + 1, d);
        EXPECT_NE(a, b);
        // Not merely shifted: most elements differ.
        std::size_t same = 0;
        const std::size_t w = size_of(t);
        for (std::size_t i = 0; i < 1000; ++i) same += std::memcmp(a.data() + i * w, b.data() + i * w, w) == 0;
        if (d != Distribution::skewed) EXPECT_LT(same, 20u);
        else EXPECT_LT(same, 800u);  // ~64% of the pairs share the common value
      }
}

TEST(Generate, ElementDependsOnlyOnSeedAndIndex) {
  for (Dtype t : tessera_test::kDtypes)
    for (Distribution d : kDistributions) {
      SCOPED_TRACE(label(t, d));
      const auto shorter = generate(t, 37, 9, d);
      const auto longer = generate(t, 5000, 9, d);
      EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
    }
}

TEST(Generate, IndependentOfThreadCount) {
  const int saved = omp_get_max_threads();
  for (Dtype t : tessera_test::kDtypes) {
    omp_set_num_threads(1);
    const auto one = generate(t, 100003, 5, Distribution::uniform);
    omp_set_num_threads(4);
    const auto four = generate(t, 100003, 5, Distribution::uniform);
    omp_set_num_threads(saved);
    EXPECT_EQ(one, four) << to_string(t);
  }
}

TEST(Generate, NeverAllZero) {
  for (Dtype t : tessera_test::kDtypes)
    for (Distribution d : kDistributions) {
      SCOPED_TRACE(label(t, d));
      for (std::uint64_t seed = 0; seed < 3000; ++seed) {
        ASSERT_FALSE(all_zero(generate(t, 1, seed, d), t)) << "n=1 seed=" << seed;
        if (seed < 500) {
          ASSERT_FALSE(all_zero(generate(t, 2, seed, d), t)) << "n=2 seed=" << seed;
          ASSERT_FALSE(all_zero(generate(t, 3, seed, d), t)) << "n=3 seed=" << seed;
        }
      }
      EXPECT_FALSE(all_zero(generate(t, 100000, 1, d), t));
    }
}

TEST(Generate, TextLooksLikeEnglish) {
  std::vector<std::uint8_t> text(200000);
  fill_random(text.data(), text.size(), 11, Distribution::text);
  std::size_t count[256] = {};
  for (std::uint8_t c : text) {
    ASSERT_TRUE(c == '\n' || (c >= 32 && c < 127)) << "byte " << int(c) << " is not printable text";
    ++count[c];
  }
  // About one byte in six is a space; 'e' is the commonest letter; every
  // lower-case letter occurs; the byte stream is far from uniform.
  EXPECT_NEAR(double(count[' ']) / text.size(), 0.165, 0.01);
  for (int c = 'a'; c <= 'z'; ++c) {
    EXPECT_GT(count[c], 0u) << char(c);
    if (c != 'e') {
      EXPECT_GT(count['e'], count[c]) << char(c);
    }
  }
  EXPECT_EQ(count[0], 0u);
}

TEST(Generate, ZeroElementsWritesNothing) {
  unsigned char guard[16];
  std::memset(guard, 0xAB, sizeof guard);
  for (Dtype t : tessera_test::kDtypes)
    for (Distribution d : kDistributions) fill_random(guard, t, 0, 1, d);
  for (unsigned char c : guard) EXPECT_EQ(c, 0xAB);
}

TEST(Generate, FloatsAreFiniteAndInRange) {
  for (Dtype t : {Dtype::f32, Dtype::f64})
    tessera_test::with_type(t, [&]<class T>() {
      if constexpr (std::is_floating_point_v<T>) {
        const auto u = generate<T>(200000, 3, Distribution::uniform);
        double mean = 0;
        for (T v : u) {
          ASSERT_TRUE(std::isfinite(v));
          // U[-1, 1) + 0.25 (the +1 only if element 0 was fixed up)
          ASSERT_GE(v, T(-0.75));
          ASSERT_LE(v, T(1.25));
          mean += v;
        }
        mean /= static_cast<double>(u.size());
        EXPECT_NEAR(mean, 0.25, 0.01) << to_string(t);  // sigma of the mean ~0.0013
        EXPECT_LT(*std::min_element(u.begin(), u.end()), T(-0.74));
        EXPECT_GT(*std::max_element(u.begin(), u.end()), T(1.24));

        const auto s = generate<T>(200000, 3, Distribution::small);
        for (T v : s) {
          ASSERT_GE(v, T(0));
          ASSERT_LE(v, T(1));
        }
        EXPECT_LT(*std::min_element(s.begin(), s.end()), T(0.001));
        EXPECT_GT(*std::max_element(s.begin(), s.end()), T(0.999));

        const auto c = generate<T>(1000, 3, Distribution::constant);
        EXPECT_NE(c[0], T(0));
        EXPECT_TRUE(std::all_of(c.begin(), c.end(), [&](T v) { return v == c[0]; }));
      }
    });
}

// The most common value and its share of the elements.
template <class T>
std::pair<T, double> mode(const std::vector<T>& v) {
  std::map<T, std::size_t> count;
  for (T x : v) ++count[x];
  auto best = std::max_element(count.begin(), count.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  return {best->first, static_cast<double>(best->second) / static_cast<double>(v.size())};
}

TEST(Generate, SkewedIsEightyPercentOneValue) {
  for (Dtype t : tessera_test::kDtypes)
    tessera_test::with_type(t, [&]<class T>() {
      const auto v = generate<T>(100000, 17, Distribution::skewed);
      const auto [value, share] = mode(v);
      // 80% +- 3 (binomial sigma ~0.13%)
      EXPECT_GT(share, 0.77) << to_string(t);
      EXPECT_LT(share, 0.83) << to_string(t);
      EXPECT_NE(value, T(0));
      // The rest are not all one other value.
      std::vector<T> rest;
      for (T x : v)
        if (x != value) rest.push_back(x);
      EXPECT_LT(mode(rest).second, 0.05) << to_string(t);
      // The same common value whatever the seed.
      EXPECT_EQ(mode(generate<T>(100000, 18, Distribution::skewed)).first, value);
    });
}

template <class T>
void check_full_range() {
  const auto v = generate<T>(200000, 23, Distribution::uniform);
  const T lo = *std::min_element(v.begin(), v.end());
  const T hi = *std::max_element(v.begin(), v.end());
  // 200000 uniform draws over 2^bits values leave gaps of ~2^bits / 200000
  // at the ends: 2^(bits - 8) is ~800x that.
  constexpr int bits = 8 * sizeof(T);
  constexpr T margin = T(1) << (bits - 8);
  EXPECT_LT(lo, std::numeric_limits<T>::min() + margin);
  EXPECT_GT(hi, std::numeric_limits<T>::max() - margin);
  std::size_t negative = 0, odd = 0, top_bits = 0;
  for (T x : v) {
    negative += x < 0;
    odd += (x & 1) != 0;
    // both top magnitude bits used: |x| >= 2^(bits - 2)
    top_bits += (x >= (T(1) << (bits - 2))) || (x < -(T(1) << (bits - 2)));
  }
  const double n = static_cast<double>(v.size());
  EXPECT_NEAR(negative / n, 0.5, 0.01);
  EXPECT_NEAR(odd / n, 0.5, 0.01);
  EXPECT_NEAR(top_bits / n, 0.5, 0.01);
}

TEST(Generate, IntsUniformCoverTheFullRange) {
  check_full_range<std::int32_t>();
  check_full_range<std::int64_t>();
}

TEST(Generate, IntsSmallStayWithinThousand) {
  for (Dtype t : {Dtype::i32, Dtype::i64})
    tessera_test::with_type(t, [&]<class T>() {
      if constexpr (std::is_integral_v<T>) {
        const auto v = generate<T>(200000, 29, Distribution::small);
        for (T x : v) {
          ASSERT_GE(x, T(-1000));
          ASSERT_LE(x, T(1000));
        }
        EXPECT_EQ(*std::min_element(v.begin(), v.end()), T(-1000));
        EXPECT_EQ(*std::max_element(v.begin(), v.end()), T(1000));
        const auto c = generate<T>(100, 29, Distribution::constant);
        EXPECT_NE(c[0], T(0));
        EXPECT_TRUE(std::all_of(c.begin(), c.end(), [&](T x) { return x == c[0]; }));
      }
    });
}

TEST(Generate, DistributionNames) {
  EXPECT_EQ(harness::to_string(Distribution::uniform), "uniform");
  EXPECT_EQ(harness::to_string(Distribution::small), "small");
  EXPECT_EQ(harness::to_string(Distribution::skewed), "skewed");
  EXPECT_EQ(harness::to_string(Distribution::constant), "constant");
}

TEST(Generate, Mix64IsAFunctionOfSeedAndIndex) {
  static_assert(harness::mix64(1, 2) == harness::mix64(1, 2));
  EXPECT_NE(harness::mix64(1, 2), harness::mix64(2, 1));
  EXPECT_NE(harness::mix64(0, 0), harness::mix64(0, 1));
  EXPECT_NE(harness::mix64(0, 0), harness::mix64(1, 0));
}

}  // namespace

TEST(Generate, FromFileRepeatsTheBytes) {
  const std::string path = ::testing::TempDir() + "tessera_input_bytes.txt";
  {
    std::ofstream f(path, std::ios::binary);
    f << "abc\ndef";
  }
  std::vector<std::uint8_t> got(17, 0);
  tessera::harness::fill_from_file(got.data(), got.size(), path);
  const std::string want = "abc\ndefabc\ndefabc";
  EXPECT_EQ(std::string(got.begin(), got.end()), want);
  std::vector<std::uint8_t> shorter(3, 0);
  tessera::harness::fill_from_file(shorter.data(), shorter.size(), path);
  EXPECT_EQ(std::string(shorter.begin(), shorter.end()), "abc");
  std::remove(path.c_str());
}

TEST(Generate, FromFileNamesTheBadFile) {
  std::vector<std::uint8_t> buf(4, 0x5A);
  try {
    tessera::harness::fill_from_file(buf.data(), buf.size(), "/nonexistent/tessera.bin");
    FAIL() << "no error for a missing file";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/tessera.bin"), std::string::npos) << e.what();
  }
  const std::string empty = ::testing::TempDir() + "tessera_empty.bin";
  { std::ofstream f(empty, std::ios::binary); }
  EXPECT_THROW(tessera::harness::fill_from_file(buf.data(), buf.size(), empty), tessera::Error);
  std::remove(empty.c_str());
}
