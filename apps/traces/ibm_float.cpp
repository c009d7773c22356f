// IBM <-> IEEE single conversions on integer arithmetic (contract in
// tessera/apps/ibm_float.hpp). Both directions reduce to "an integer
// significand times a power of two", then shift it into the other format's
// field with round-to-nearest-even.
#include "tessera/apps/ibm_float.hpp"

#include <bit>
#include <cstring>

namespace tessera::ibm {
namespace {

constexpr std::uint32_t SIGN = 0x80000000u;
constexpr std::uint32_t IBM_FRACTION = 0x00FFFFFFu;  // 24-bit fraction field
constexpr std::uint32_t IBM_MAX_MAGNITUDE = 0x7FFFFFFFu;
constexpr std::uint32_t FLOAT_INF = 0x7F800000u;

// v >> shift, rounded to nearest, ties to even (v < 2^32, shift >= 1).
// Branch-free: adding half - 1 plus the kept part's lowest bit carries into
// the kept part exactly when the rest is above half, or at half with an odd
// kept part (data-dependent branches here cost more than the arithmetic).
constexpr std::uint64_t shift_round_even(std::uint64_t v, int shift) {
  if (shift >= 40) return 0;  // v < 2^32 rounds to 0 (below half of 2^shift)
  const std::uint64_t half_minus_1 = (std::uint64_t{1} << (shift - 1)) - 1;
  return (v + half_minus_1 + ((v >> shift) & 1)) >> shift;
}

inline float bits_to_float(std::uint32_t u) { return std::bit_cast<float>(u); }

}  // namespace

float ibm_to_float(std::uint32_t ibm) noexcept {
  const std::uint32_t sign = ibm & SIGN;
  const std::uint32_t fraction = ibm & IBM_FRACTION;
  if (fraction == 0) return bits_to_float(sign);  // +-0 (any exponent)
  const int hex_exponent = static_cast<int>((ibm >> 24) & 0x7F) - 64;
  // value = fraction * 2^(4*hex_exponent - 24). Normalise the fraction so that
  // bit 23 is set: value = 1.m * 2^e with e = 4*hex_exponent - 1 - leading.
  const int leading = std::countl_zero(fraction) - 8;  // 0..23 zero bits above the first one
  const std::uint32_t significand = fraction << leading;
  const int e = 4 * hex_exponent - 1 - leading;
  const int biased = e + 127;
  if (biased >= 255) return bits_to_float(sign | FLOAT_INF);
  if (biased >= 1) return bits_to_float(sign | (static_cast<std::uint32_t>(biased) << 23) | (significand & 0x7FFFFF));
  // Subnormal or zero: the significand scaled to units of 2^-149 is
  // significand * 2^(e - 23 + 149) = significand >> (1 - biased). A carry out
  // of the rounding into bit 23 correctly yields the smallest normal.
  const auto sub = static_cast<std::uint32_t>(shift_round_even(significand, 1 - biased));
  return bits_to_float(sign | sub);
}

std::uint32_t float_to_ibm(float x) noexcept {
  const auto bits = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t sign = bits & SIGN;
  const std::uint32_t biased = (bits >> 23) & 0xFF;
  const std::uint32_t mantissa = bits & 0x7FFFFF;
  if (biased == 0xFF) return sign | IBM_MAX_MAGNITUDE;  // inf / NaN: no IBM equivalent
  if (biased == 0 && mantissa == 0) return sign;        // +-0
  // value = significand * 2^p with an integer significand < 2^24.
  const std::uint32_t significand = biased == 0 ? mantissa : (mantissa | 0x800000);
  const int p = biased == 0 ? -149 : static_cast<int>(biased) - 150;
  // value lies in [2^(k-1), 2^k) with k = bit length + p; the IBM exponent q
  // puts value / 16^q in [1/16, 1): q = ceil(k / 4) (C++20 >> is a floor).
  const int k = static_cast<int>(std::bit_width(significand)) + p;
  const int q = (k + 3) >> 2;
  // fraction = value * 2^(24 - 4q), a 21..24-bit integer. Rounding happens
  // only when k < 4q (the leading hex digit has leading zeros), where the
  // fraction is below 2^23: rounding up cannot carry out of 24 bits.
  const int shift = p + 24 - 4 * q;
  const std::uint64_t fraction = shift >= 0 ? (std::uint64_t{significand} << shift)
                                            : shift_round_even(significand, -shift);
  // Every float lands inside IBM's exponent range (q from -37 to 32).
  return sign | (static_cast<std::uint32_t>(q + 64) << 24) | static_cast<std::uint32_t>(fraction);
}

// Bulk conversions run on several threads from this many samples on (a
// batch of traces holds millions; small calls stay on the calling thread).
constexpr std::int64_t PARALLEL_MIN_SAMPLES = std::int64_t{1} << 18;

void decode_be(void* words, std::size_t n) noexcept {
  auto* p = static_cast<unsigned char*>(words);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static) if (count >= PARALLEL_MIN_SAMPLES)
  for (std::int64_t i = 0; i < count; ++i) {
    std::uint32_t w;
    std::memcpy(&w, p + 4 * i, 4);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap32(w);
    const float f = ibm_to_float(w);
    std::memcpy(p + 4 * i, &f, 4);
  }
}

std::size_t encode_be(void* words, std::size_t n) noexcept {
  auto* p = static_cast<unsigned char*>(words);
  const auto count = static_cast<std::int64_t>(n);
  std::size_t nonfinite = 0;
#pragma omp parallel for schedule(static) reduction(+ : nonfinite) if (count >= PARALLEL_MIN_SAMPLES)
  for (std::int64_t i = 0; i < count; ++i) {
    float f;
    std::memcpy(&f, p + 4 * i, 4);
    nonfinite += is_finite_for_ibm(f) ? 0 : 1;
    std::uint32_t w = float_to_ibm(f);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap32(w);
    std::memcpy(p + 4 * i, &w, 4);
  }
  return nonfinite;
}

}  // namespace tessera::ibm
