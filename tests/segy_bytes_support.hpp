// SEG-Y files written byte by byte by the tests, for what segyio 1.8 cannot
// write (formats 6, 9-16; text headers that are text): a textual header in
// EBCDIC or ASCII, a binary header with the fields a reader interprets, and
// traces whose header bytes are random and whose samples are the given
// values encoded in the file's format and byte order. Independent of
// tessera's own codecs (apps/traces/sample_codec.cpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace traces_test {

struct SegyBytesSpec {
  int format = 5;
  bool little_endian = false;
  bool ascii_text = false;  // textual header in ASCII instead of EBCDIC
  std::size_t samples = 0;
  std::vector<std::vector<double>> traces;  // the values, exactly representable in `format`
  std::uint64_t seed = 1;                    // the trace headers' random bytes
};

inline int bytes_of_format(int format) {
  switch (format) {
    case 8: case 16: return 1;
    case 3: case 11: return 2;
    case 1: case 2: case 5: case 10: return 4;
    case 6: case 9: case 12: return 8;
    default: throw std::runtime_error("bytes_of_format: format " + std::to_string(format));
  }
}

// The bit pattern of `v` in `format` (exact values only; IBM: positive
// exponents, normalised).
inline std::uint64_t encode_value(double v, int format) {
  switch (format) {
    case 1: {
      if (v == 0) return 0;
      std::uint64_t sign = v < 0 ? 0x80000000u : 0;
      double m = std::fabs(v);
      int e = 64;
      while (m >= 1) m /= 16, ++e;
      while (m < 1.0 / 16) m *= 16, --e;
      return sign | static_cast<std::uint64_t>(e) << 24 | static_cast<std::uint64_t>(std::ldexp(m, 24));
    }
    case 5: return std::bit_cast<std::uint32_t>(static_cast<float>(v));
    case 6: return std::bit_cast<std::uint64_t>(v);
    case 2: case 3: case 8: case 9: return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    default: return static_cast<std::uint64_t>(v);  // unsigned formats
  }
}

inline void put_be_or_le(std::vector<unsigned char>& b, std::size_t at, std::uint64_t v, int n, bool le) {
  for (int i = 0; i < n; ++i)
    b[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(v >> (8 * (le ? i : n - 1 - i)));
}

inline std::vector<unsigned char> segy_bytes(const SegyBytesSpec& s) {
  const int sb = bytes_of_format(s.format);
  const std::size_t trace_bytes = 240 + s.samples * static_cast<std::size_t>(sb);
  std::vector<unsigned char> b(3600 + s.traces.size() * trace_bytes, 0);
  // 40 card images "C 1 ..." of spaces and letters.
  for (std::size_t i = 0; i < 3200; ++i) {
    const char c = i % 80 == 0 ? 'C' : (i % 7 == 3 ? 'A' + static_cast<char>(i % 26) : ' ');
    b[i] = s.ascii_text ? static_cast<unsigned char>(c) : (c == ' ' ? 0x40 : c == 'C' ? 0xC3 : 0xC1 + (c - 'A') % 9);
  }
  const bool le = s.little_endian;
  put_be_or_le(b, 3220, s.samples, 2, le);          // bytes 3221-3222
  put_be_or_le(b, 3224, static_cast<std::uint64_t>(s.format), 2, le);  // 3225-3226
  const bool rev2 = s.format == 6 || s.format > 8;  // formats rev 2 added
  b[3500] = rev2 ? 2 : 1;
  if (rev2) put_be_or_le(b, 3296, 0x01020304u, 4, le);  // rev 2's byte-order constant
  std::mt19937_64 rng(s.seed);
  for (std::size_t t = 0; t < s.traces.size(); ++t) {
    const std::size_t at = 3600 + t * trace_bytes;
    for (std::size_t i = 0; i < 240; ++i) b[at + i] = static_cast<unsigned char>(rng());
    put_be_or_le(b, at + 114, (t % 2) ? s.samples : 0, 2, le);  // bytes 115-116: set or left 0
    for (std::size_t i = 0; i < s.samples; ++i)
      put_be_or_le(b, at + 240 + i * static_cast<std::size_t>(sb), encode_value(s.traces[t][i], s.format), sb, le);
  }
  return b;
}

}  // namespace traces_test
