#include "harness/generate.hpp"

#include <cstring>
#include <type_traits>

namespace tessera::harness {

std::string_view to_string(Distribution d) noexcept {
  switch (d) {
    case Distribution::uniform: return "uniform";
    case Distribution::small: return "small";
    case Distribution::skewed: return "skewed";
    case Distribution::constant: return "constant";
  }
  return "?";
}

namespace {

// 24/53 random mantissa bits -> [0, 1).
inline double unit(std::uint64_t r) { return static_cast<double>(r >> 11) * 0x1.0p-53; }

template <class T>
T element(std::uint64_t seed, std::size_t i, Distribution dist) {
  const std::uint64_t r = mix64(seed, i);
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

}  // namespace tessera::harness
