// The parser's number fast paths (the entry section is mostly digits):
// - digits eight at a time (SWAR on a 64-bit word) for indices and mantissas;
// - decimal to binary by one exactly-rounded operation when it is exact
//   enough: a mantissa of at most 19 digits is exact in x87's 64-bit long
//   double, so is 10^|e| for |e| <= 27, and m * 10^e or m / 10^|e| is then
//   rounded once to 64 bits; rounding that again to double (or float) is
//   correct unless the 64-bit result lies exactly on a midpoint of the target
//   format, which is checked. Anything else (more digits, larger exponents,
//   inf/nan, midpoints, malformed text) returns false and the caller falls
//   back to std::from_chars, which decides and reports.
// Measured on the speed file (docs/matrix_market.md): the digit loops and
// std::from_chars were 80% of a one-thread parse before these.
#pragma once

#include <cfloat>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tessera::mm::detail {

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

// Number of leading digits in the 8 bytes at p (0..8) and their value.
inline unsigned swar_digits(const char* p, std::uint64_t& value) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  const std::uint64_t t = w ^ 0x3030303030303030ULL;  // a digit byte becomes 0..9
  // A byte is not a digit when its high nibble is set, or when adding 6 sets
  // it (10..15). Carries only move towards later bytes, past the first
  // non-digit, so the lowest flagged byte is exact.
  const std::uint64_t bad = (t | (t + 0x0606060606060606ULL)) & 0xF0F0F0F0F0F0F0F0ULL;
  const unsigned n = bad == 0 ? 8 : static_cast<unsigned>(__builtin_ctzll(bad)) / 8;
  if (n == 0) {
    value = 0;
    return 0;
  }
  // Left-align the n digits (zeros in front change nothing), then combine
  // pairs, quads and halves.
  std::uint64_t v = t << (8 * (8 - n));
  v = (v * 10) + (v >> 8);
  v = (((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
       (((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
      32;
  value = v;
  return n;
}

inline constexpr std::uint64_t POW10_U64[20] = {1ULL,
                                                1ULL * 10,
                                                1ULL * 100,
                                                1ULL * 1000,
                                                1ULL * 10000,
                                                1ULL * 100000,
                                                1ULL * 1000000,
                                                1ULL * 10000000,
                                                1ULL * 100000000,
                                                1ULL * 1000000000,
                                                10000000000ULL,
                                                100000000000ULL,
                                                1000000000000ULL,
                                                10000000000000ULL,
                                                100000000000000ULL,
                                                1000000000000000ULL,
                                                10000000000000000ULL,
                                                100000000000000000ULL,
                                                1000000000000000000ULL,
                                                10000000000000000000ULL};

// Appends the digits at p to m (m = m * 10^n + digits); returns how many
// were read. `fits` turns false when m would pass 10^19 - 1 (m is then
// meaningless). Reads 8 bytes at a time while 8 remain.
inline unsigned read_digits(const char*& p, const char* end, std::uint64_t& m, bool& fits) {
  unsigned total = 0;
  for (;;) {
    unsigned n;
    std::uint64_t chunk;
    if (end - p >= 8) {
      n = swar_digits(p, chunk);
    } else {
      n = 0;
      chunk = 0;
      while (p + n < end && is_digit(p[n])) chunk = chunk * 10 + static_cast<unsigned>(p[n++] - '0');
    }
    if (n == 0) return total;
    if (fits && m < POW10_U64[19 - n])  // then m * 10^n + chunk <= 10^19 - 1
      m = m * POW10_U64[n] + chunk;
    else
      fits = false;
    p += n;
    total += n;
    if (n < 8) return total;
  }
}

#if defined(__x86_64__) && LDBL_MANT_DIG == 64
inline constexpr bool EXACT_FAST_PATH = true;
#else
inline constexpr bool EXACT_FAST_PATH = false;
#endif

// Parses [-]digits[.digits][(e|E)[+-]digits] ending at a blank, CR, LF or
// the end; false (p unchanged) when the fast path cannot decide.
template <class T>
inline bool parse_real_fast(const char*& p, const char* end, T& out) {
  if constexpr (!EXACT_FAST_PATH) {
    return false;
  } else {
    static constexpr long double POW10[28] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
                                              1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
                                              1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
    const char* q = p;
    const bool negative = q < end && *q == '-';
    if (negative) ++q;
    std::uint64_t m = 0;
    bool fits = true;
    const unsigned int_digits = read_digits(q, end, m, fits);
    int exp10 = 0;
    unsigned frac_digits = 0;
    if (q < end && *q == '.') {
      ++q;
      frac_digits = read_digits(q, end, m, fits);
      exp10 = -static_cast<int>(frac_digits);
    }
    if (int_digits + frac_digits == 0 || !fits || frac_digits > 1000) return false;
    if (q < end && (*q == 'e' || *q == 'E')) {
      ++q;
      bool eneg = false;
      if (q < end && (*q == '-' || *q == '+')) eneg = *q++ == '-';
      int e = 0;
      const char* s = q;
      while (q < end && is_digit(*q) && q - s < 4) e = e * 10 + (*q++ - '0');
      if (q == s || (q < end && is_digit(*q))) return false;
      exp10 += eneg ? -e : e;
    }
    if (!(q == end || *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) return false;
    if (m == 0) {
      out = negative ? T(-0.0) : T(0.0);
      p = q;
      return true;
    }
    if (exp10 < -27 || exp10 > 27) return false;
    const long double x = exp10 < 0 ? static_cast<long double>(m) / POW10[-exp10]
                                    : static_cast<long double>(m) * POW10[exp10];
    std::uint64_t bits;  // x87 extended: the 64-bit significand comes first
    std::memcpy(&bits, &x, 8);
    constexpr unsigned DROPPED = 64 - std::numeric_limits<T>::digits;  // 11 for double, 40 for float
    constexpr std::uint64_t MASK = (std::uint64_t{1} << DROPPED) - 1, MIDPOINT = std::uint64_t{1} << (DROPPED - 1);
    if ((bits & MASK) == MIDPOINT) return false;
    const T v = static_cast<T>(x);
    if constexpr (std::is_same_v<T, float>) {
      if (!(v <= FLT_MAX) || v == 0.0f || !(v >= FLT_MIN)) return false;  // overflow or subnormal: let from_chars say
    }
    out = negative ? -v : v;
    p = q;
    return true;
  }
}

}  // namespace tessera::mm::detail
