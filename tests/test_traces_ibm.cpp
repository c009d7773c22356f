// IBM <-> IEEE single conversions (tessera/apps/ibm_float.hpp) against an
// independent reference: the exact value of an IBM word in double (always
// exact) rounded once to float, and the float's exact value scaled into the
// IBM fraction and rounded with nearbyint (ties to even) in double. Sampled
// over the whole 32-bit space with a prime stride, plus the edges: zeros,
// subnormals, ties, carries into a new hex digit, overflow, inf and NaN.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "tessera/apps/ibm_float.hpp"
#include "traces_test_support.hpp"

namespace {

using tessera::ibm::float_to_ibm;
using tessera::ibm::ibm_to_float;
using traces_test::ibm_exact;

// Every 4093rd pattern (a prime): about a million words covering every
// exponent and sign.
constexpr std::uint64_t STRIDE = 4093;

std::uint32_t ref_float_to_ibm(float x) {
  const auto bits = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t sign = bits & 0x80000000u;
  if (!std::isfinite(x)) return sign | 0x7FFFFFFFu;
  const double a = std::fabs(static_cast<double>(x));
  if (a == 0) return sign;
  int e = 0;
  (void)std::frexp(a, &e);           // a = m * 2^e, m in [0.5, 1)
  int q = (e + 3 + 1024) / 4 - 256;  // ceil(e / 4) without negative division
  double frac = std::nearbyint(std::ldexp(a, 24 - 4 * q));
  if (frac == 16777216.0) {  // (cannot happen for floats; kept so the reference is general)
    frac = 1048576.0;
    ++q;
  }
  return sign | static_cast<std::uint32_t>(q + 64) << 24 | static_cast<std::uint32_t>(frac);
}

TEST(TracesIbm, KnownValues) {
  EXPECT_EQ(float_to_ibm(1.0f), 0x41100000u);
  EXPECT_EQ(float_to_ibm(-118.625f), 0xC276A000u);  // the classic example
  EXPECT_EQ(float_to_ibm(0.1f), 0x4019999Au);       // nearest; truncation would give ...99
  EXPECT_EQ(float_to_ibm(0.0f), 0x00000000u);
  EXPECT_EQ(float_to_ibm(-0.0f), 0x80000000u);
  EXPECT_EQ(ibm_to_float(0x41100000u), 1.0f);
  EXPECT_EQ(ibm_to_float(0xC276A000u), -118.625f);
  EXPECT_EQ(ibm_to_float(0x40100000u), 0.0625f);
  EXPECT_EQ(ibm_to_float(0x41010000u), 0.0625f);  // unnormalised: 0x010000 / 2^24 * 16
  EXPECT_EQ(std::bit_cast<std::uint32_t>(ibm_to_float(0x80000000u)), 0x80000000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(ibm_to_float(0x3F000000u)), 0u);  // zero fraction, any exponent
}

TEST(TracesIbm, OverflowInfAndNan) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(ibm_to_float(0x7FFFFFFFu), inf);
  EXPECT_EQ(ibm_to_float(0xFFFFFFFFu), -inf);
  EXPECT_EQ(ibm_to_float(0x61100000u), inf);                       // 16^32 = 2^128
  EXPECT_EQ(ibm_to_float(0x60FFFFFFu), std::numeric_limits<float>::max());  // (1 - 2^-24) 2^128
  EXPECT_EQ(float_to_ibm(inf), 0x7FFFFFFFu);
  EXPECT_EQ(float_to_ibm(-inf), 0xFFFFFFFFu);
  EXPECT_EQ(float_to_ibm(std::numeric_limits<float>::quiet_NaN()), 0x7FFFFFFFu);
  EXPECT_EQ(float_to_ibm(std::numeric_limits<float>::max()), 0x60FFFFFFu);
  EXPECT_FALSE(tessera::ibm::is_finite_for_ibm(inf));
  EXPECT_TRUE(tessera::ibm::is_finite_for_ibm(1e38f));
}

TEST(TracesIbm, SubnormalsBothWays) {
  const float tiny = std::numeric_limits<float>::denorm_min();  // 2^-149
  EXPECT_EQ(ibm_exact(float_to_ibm(tiny)), static_cast<double>(tiny));
  EXPECT_EQ(ibm_to_float(float_to_ibm(tiny)), tiny);
  EXPECT_EQ(ibm_to_float(float_to_ibm(1e-40f)), 1e-40f);  // exact: subnormals fit IBM's fraction
  // 2^-150 exactly: a tie between 0 and 2^-149, to even (0); just above it
  // rounds up; 2^-128 (below float's normal range) is an exact subnormal.
  const std::uint32_t two_m150 = (static_cast<std::uint32_t>(-37 + 64) << 24) | 0x400000u;  // 0.25 * 16^-37
  ASSERT_EQ(ibm_exact(two_m150), std::ldexp(1.0, -150));
  EXPECT_EQ(ibm_to_float(two_m150), 0.0f);
  EXPECT_EQ(ibm_to_float(two_m150 + 1), tiny);
  EXPECT_EQ(ibm_to_float(0x21100000u), std::ldexp(1.0f, -128));
}

TEST(TracesIbm, TiesRoundToEven) {
  // In [1, 2) the IBM fraction is value * 2^20 (leading hex digit 1, three
  // zero bits): 1 + 2^-21 is a tie between 0x100000 and 0x100001 -> even;
  // 1 + 3 * 2^-21 a tie between ...01 and ...02 -> even (...02).
  EXPECT_EQ(float_to_ibm(1.0f + 0x1p-21f), 0x41100000u);
  EXPECT_EQ(float_to_ibm(1.0f + 3 * 0x1p-21f), 0x41100002u);
  EXPECT_EQ(float_to_ibm(1.0f + 0x1p-22f), 0x41100000u);      // below half: down
  EXPECT_EQ(float_to_ibm(1.0f + 0x1p-21f + 0x1p-23f), 0x41100001u);  // above half: up
  // Just below 8: 2^23 - 1/2 in fraction units, a tie -> 2^23 (8.0).
  EXPECT_EQ(float_to_ibm(std::nextafter(8.0f, 0.0f)), 0x41800000u);
  // In [8, 16) all 24 bits fit: exact.
  EXPECT_EQ(float_to_ibm(std::nextafter(16.0f, 0.0f)), 0x41FFFFFFu);
}

TEST(TracesIbm, IbmToFloatMatchesCorrectRoundingEverywhere) {
  std::uint64_t checked = 0;
  for (std::uint64_t u = 0; u <= 0xFFFFFFFFu; u += STRIDE) {
    const auto w = static_cast<std::uint32_t>(u);
    const float got = ibm_to_float(w);
    const auto want = static_cast<float>(ibm_exact(w));  // one rounding of the exact value
    ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want)) << std::hex << "word 0x" << w;
    ASSERT_FALSE(std::isnan(got));
    ++checked;
  }
  EXPECT_GT(checked, 1000000u);
}

TEST(TracesIbm, FloatToIbmMatchesCorrectRoundingEverywhere) {
  for (std::uint64_t u = 0; u <= 0xFFFFFFFFu; u += STRIDE) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(u));
    const std::uint32_t got = float_to_ibm(x);
    ASSERT_EQ(got, ref_float_to_ibm(x)) << std::hex << "float 0x" << u;
    if (!std::isfinite(x) || x == 0) continue;
    // Within half an IBM unit in the last place, and normalised.
    ASSERT_NE(got & 0x00F00000u, 0u) << std::hex << "unnormalised 0x" << got << " for 0x" << u;
    const double ulp = std::ldexp(1.0, 4 * (static_cast<int>((got >> 24) & 0x7F) - 64) - 24);
    ASSERT_LE(std::fabs(ibm_exact(got) - static_cast<double>(x)), ulp / 2) << std::hex << "float 0x" << u;
  }
}

// IBM -> float -> IBM is the identity for every normalised IBM word inside
// float's range (what a SEG-Y file read and written back unchanged needs).
TEST(TracesIbm, NormalisedIbmRoundTripsExactly) {
  for (std::uint64_t u = 0; u <= 0xFFFFFFFFu; u += STRIDE) {
    const auto w = static_cast<std::uint32_t>(u);
    const int e = static_cast<int>((w >> 24) & 0x7F);
    if ((w & 0x00F00000u) == 0) continue;  // unnormalised or zero
    // float's normal range: 2^-126 <= |v| < 2^128, i.e. IBM exponents -31 .. 32
    if (e - 64 < -30 || e - 64 > 32) continue;
    ASSERT_EQ(float_to_ibm(ibm_to_float(w)), w) << std::hex << "word 0x" << w;
  }
}

TEST(TracesIbm, BulkBigEndianConversions) {
  const float values[] = {1.0f, -118.625f, 0.1f, 3.0e38f, std::numeric_limits<float>::infinity(), -0.0f};
  unsigned char buf[sizeof values];
  std::memcpy(buf, values, sizeof values);
  EXPECT_EQ(tessera::ibm::encode_be(buf, 6), 1u);  // one non-finite
  EXPECT_EQ(traces_test::load_u32(buf, false), 0x41100000u);
  EXPECT_EQ(traces_test::load_u32(buf + 4, false), 0xC276A000u);
  EXPECT_EQ(traces_test::load_u32(buf + 16, false), 0x7FFFFFFFu);
  tessera::ibm::decode_be(buf, 6);
  float back[6];
  std::memcpy(back, buf, sizeof back);
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], -118.625f);
  EXPECT_EQ(back[2], ibm_to_float(0x4019999Au));
  EXPECT_EQ(back[3], ibm_to_float(float_to_ibm(3.0e38f)));
  EXPECT_EQ(back[4], std::numeric_limits<float>::infinity());
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back[5]), 0x80000000u);
}

#if TESSERA_HAVE_SEGYIO
// segyio's converter agrees wherever it is exact (normalised IBM words well
// inside float's range); it truncates in the other direction, where tessera
// rounds: tessera is never farther from the float than segyio.
TEST(TracesIbm, AgreesWithSegyioWhereSegyioIsExact) {
  for (std::uint64_t u = 0; u <= 0xFFFFFFFFu; u += STRIDE * 7) {
    const auto w = static_cast<std::uint32_t>(u);
    const int e = static_cast<int>((w >> 24) & 0x7F) - 64;
    if ((w & 0x00F00000u) == 0 || e < -30 || e > 31) continue;
    unsigned char be[4] = {static_cast<unsigned char>(w >> 24), static_cast<unsigned char>(w >> 16),
                           static_cast<unsigned char>(w >> 8), static_cast<unsigned char>(w)};
    ASSERT_EQ(segy_to_native(SEGY_IBM_FLOAT_4_BYTE, 1, be), SEGY_OK);
    float theirs;
    std::memcpy(&theirs, be, 4);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(ibm_to_float(w)), std::bit_cast<std::uint32_t>(theirs)) << std::hex << w;
  }
  for (std::uint64_t u = 0; u <= 0x7F7FFFFFu; u += STRIDE * 7) {  // positive finite floats
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(u));
    if (x < 1e-30f) continue;
    float y = x;
    ASSERT_EQ(segy_from_native(SEGY_IBM_FLOAT_4_BYTE, 1, &y), SEGY_OK);
    std::uint32_t theirs;
    std::memcpy(&theirs, &y, 4);
    theirs = traces_test::load_u32(reinterpret_cast<unsigned char*>(&theirs), false);
    const double mine_err = std::fabs(ibm_exact(float_to_ibm(x)) - x), their_err = std::fabs(ibm_exact(theirs) - x);
    ASSERT_LE(mine_err, their_err) << std::hex << "float 0x" << u;
  }
}
#endif

}  // namespace
