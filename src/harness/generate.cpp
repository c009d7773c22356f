#include "harness/generate.hpp"

#include "tessera/core/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <type_traits>

namespace tessera::harness {

std::string_view to_string(Distribution d) noexcept {
  switch (d) {
    case Distribution::uniform: return "uniform";
    case Distribution::small: return "small";
    case Distribution::skewed: return "skewed";
    case Distribution::constant: return "constant";
    case Distribution::text: return "text";
  }
  return "?";
}

namespace {

// 24/53 random mantissa bits -> [0, 1).
inline double unit(std::uint64_t r) { return static_cast<double>(r >> 11) * 0x1.0p-53; }

// English-like text: a byte drawn from a fixed frequency table (per mille,
// after letter-frequency tables of English prose: about one byte in six a
// space, 'e' the commonest letter, a few capitals, punctuation and newlines).
struct TextByte {
  unsigned char byte;
  unsigned short per_mille;
};
constexpr TextByte TEXT_BYTES[] = {
    {' ', 165}, {'e', 95}, {'t', 68}, {'a', 62}, {'o', 58}, {'i', 53}, {'n', 53}, {'s', 49}, {'h', 48},
    {'r', 46},  {'d', 33}, {'l', 31}, {'u', 21}, {'c', 21}, {'m', 19}, {'w', 18}, {'f', 17}, {'g', 15},
    {'y', 15},  {'p', 14}, {'b', 11}, {'v', 8},  {'k', 6},  {'j', 1},  {'x', 1},  {'q', 1},  {'z', 1},
    {'T', 4},   {'I', 3},  {'A', 3},  {'S', 2},  {'H', 2},  {'W', 2},  {'M', 2},  {'B', 2},  {'C', 2},
    {',', 11},  {'.', 9},  {'\n', 8}, {'\'', 3}, {';', 1},  {'-', 2},  {'"', 2},  {'?', 1},  {'!', 1},
    {'0', 1},   {'1', 1},
};
constexpr unsigned TEXT_TOTAL = [] {
  unsigned t = 0;
  for (auto b : TEXT_BYTES) t += b.per_mille;
  return t;
}();

unsigned char text_byte(std::uint64_t r) {
  unsigned pick = static_cast<unsigned>((r >> 20) % TEXT_TOTAL);
  for (auto b : TEXT_BYTES) {
    if (pick < b.per_mille) return b.byte;
    pick -= b.per_mille;
  }
  return ' ';
}

template <class T>
T element(std::uint64_t seed, std::size_t i, Distribution dist) {
  const std::uint64_t r = mix64(seed, i);
  if (dist == Distribution::text) return static_cast<T>(text_byte(r));
  if (dist == Distribution::constant) {
    if constexpr (std::is_floating_point_v<T>) return T(0.75);
    else return T(3);
  }
  if (dist == Distribution::skewed && (r & 0xFF) < 205) {  // 205/256 ~ 80%
    if constexpr (std::is_floating_point_v<T>) return T(0.5);
    else return T(7);
  }
  const std::uint64_t r2 = mix64(seed ^ 0xA5A5A5A5ull, i);
  if constexpr (std::is_floating_point_v<T>) {
    if (dist == Distribution::small) return static_cast<T>(unit(r2));
    return static_cast<T>(unit(r2) * 2.0 - 1.0 + 0.25);
  } else {
    if (dist == Distribution::small) {
      if constexpr (std::is_unsigned_v<T>) return static_cast<T>(r2 % 100);
      else return static_cast<T>(static_cast<std::int64_t>(r2 % 2001) - 1000);
    }
    T v;
    std::memcpy(&v, &r2, sizeof(T));  // the full range of the type
    return v;
  }
}

template <class T>
void fill(T* out, std::size_t n, std::uint64_t seed, Distribution dist) {
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) out[i] = element<T>(seed, static_cast<std::size_t>(i), dist);
  // Never all zero: uniform floats can still round to 0 in a tiny array.
  if (n > 0 && out[0] == T(0)) out[0] = T(1);
}

}  // namespace

void fill_random(void* data, Dtype type, std::size_t n, std::uint64_t seed, Distribution dist) {
  switch (type) {
    case Dtype::f32: fill(static_cast<float*>(data), n, seed, dist); break;
    case Dtype::f64: fill(static_cast<double*>(data), n, seed, dist); break;
    case Dtype::i32: fill(static_cast<std::int32_t*>(data), n, seed, dist); break;
    case Dtype::i64: fill(static_cast<std::int64_t*>(data), n, seed, dist); break;
    case Dtype::u8: fill(static_cast<std::uint8_t*>(data), n, seed, dist); break;
    case Dtype::u32: fill(static_cast<std::uint32_t*>(data), n, seed, dist); break;
  }
}

void fill_from_file(std::uint8_t* data, std::size_t n, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("--input: cannot open '{}': {}", path, std::strerror(errno)));
  in.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(n));
  const auto have = static_cast<std::size_t>(in.gcount());
  if (in.bad()) throw Error(fmt::format("--input: reading '{}' failed", path));
  if (n > 0 && have == 0) throw Error(fmt::format("--input: '{}' is empty", path));
  // Shorter than the problem: repeat what was read (doubling copies).
  for (std::size_t filled = have; filled < n;) {
    const std::size_t chunk = std::min(filled, n - filled);
    std::memcpy(data + filled, data, chunk);
    filled += chunk;
  }
}

}  // namespace tessera::harness
