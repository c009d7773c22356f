// The sample codecs: one loop per format, the byte order resolved once per
// call (the loops are the pipeline's decode/encode cost, a few ns a sample).
#include "sample_codec.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include "tessera/apps/ibm_float.hpp"

namespace tessera::traces {
namespace {

template <class U>
U swap_bytes(U v) noexcept {  // std::byteswap is C++23
  if constexpr (sizeof(U) == 1) return v;
  else if constexpr (sizeof(U) == 2) return __builtin_bswap16(v);
  else if constexpr (sizeof(U) == 4) return __builtin_bswap32(v);
  else return __builtin_bswap64(v);
}

template <class U>
U load(const unsigned char* p, bool le) noexcept {
  U v;
  std::memcpy(&v, p, sizeof(U));
  // The host is little-endian (x86-64, ARM64); SEG-Y's default is big.
  static_assert(std::endian::native == std::endian::little, "tessera traces assumes a little-endian host");
  return le ? v : swap_bytes(v);
}

template <class U>
void store(unsigned char* p, U v, bool le) noexcept {
  if (!le) v = swap_bytes(v);
  std::memcpy(p, &v, sizeof(U));
}

// T: the sample's type; U: the unsigned integer of its size.
template <class T, class U>
void decode_as(const unsigned char* in, std::size_t n, float* out, bool le) noexcept {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(std::bit_cast<T>(load<U>(in + i * sizeof(U), le)));
}

template <class T, class U>
std::size_t encode_integer(const float* in, std::size_t n, unsigned char* out, bool le) noexcept {
  // Bounds as doubles, exact: [min, max + 1) holds every value that rounds
  // into T (max + 1 is a power of two).
  constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
  constexpr double hi = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = std::nearbyint(static_cast<double>(in[i]));
    if (!(v >= lo && v < hi)) return i;  // NaN fails too
    store<U>(out + i * sizeof(U), static_cast<U>(static_cast<T>(v)), le);
  }
  return EncodeResult::NONE;
}

}  // namespace

void decode_samples(int format, bool le, const unsigned char* in, std::size_t n, float* out) noexcept {
  switch (format) {
    case 1:
      for (std::size_t i = 0; i < n; ++i) out[i] = ibm::ibm_to_float(load<std::uint32_t>(in + 4 * i, le));
      return;
    case 2: return decode_as<std::int32_t, std::uint32_t>(in, n, out, le);
    case 3: return decode_as<std::int16_t, std::uint16_t>(in, n, out, le);
    case 5: return decode_as<float, std::uint32_t>(in, n, out, le);
    case 6: return decode_as<double, std::uint64_t>(in, n, out, le);
    case 8: return decode_as<std::int8_t, std::uint8_t>(in, n, out, le);
    case 9: return decode_as<std::int64_t, std::uint64_t>(in, n, out, le);
    case 10: return decode_as<std::uint32_t, std::uint32_t>(in, n, out, le);
    case 11: return decode_as<std::uint16_t, std::uint16_t>(in, n, out, le);
    case 12: return decode_as<std::uint64_t, std::uint64_t>(in, n, out, le);
    case 16: return decode_as<std::uint8_t, std::uint8_t>(in, n, out, le);
    default: return;  // refused when the header was parsed
  }
}

EncodeResult encode_samples(int format, bool le, const float* in, std::size_t n, unsigned char* out) noexcept {
  EncodeResult r;
  switch (format) {
    case 1:
      for (std::size_t i = 0; i < n; ++i) {
        r.nonfinite += !ibm::is_finite_for_ibm(in[i]);
        store<std::uint32_t>(out + 4 * i, ibm::float_to_ibm(in[i]), le);
      }
      break;
    case 5:
      for (std::size_t i = 0; i < n; ++i) store<std::uint32_t>(out + 4 * i, std::bit_cast<std::uint32_t>(in[i]), le);
      break;
    case 6:
      for (std::size_t i = 0; i < n; ++i)
        store<std::uint64_t>(out + 8 * i, std::bit_cast<std::uint64_t>(static_cast<double>(in[i])), le);
      break;
    case 2: r.first_unfit = encode_integer<std::int32_t, std::uint32_t>(in, n, out, le); break;
    case 3: r.first_unfit = encode_integer<std::int16_t, std::uint16_t>(in, n, out, le); break;
    case 8: r.first_unfit = encode_integer<std::int8_t, std::uint8_t>(in, n, out, le); break;
    case 9: r.first_unfit = encode_integer<std::int64_t, std::uint64_t>(in, n, out, le); break;
    case 10: r.first_unfit = encode_integer<std::uint32_t, std::uint32_t>(in, n, out, le); break;
    case 11: r.first_unfit = encode_integer<std::uint16_t, std::uint16_t>(in, n, out, le); break;
    case 12: r.first_unfit = encode_integer<std::uint64_t, std::uint64_t>(in, n, out, le); break;
    case 16: r.first_unfit = encode_integer<std::uint8_t, std::uint8_t>(in, n, out, le); break;
    default: break;
  }
  return r;
}

}  // namespace tessera::traces
