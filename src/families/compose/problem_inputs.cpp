#include "families/compose/problem_inputs.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "harness/generate.hpp"
#include "families/compose/dispatch.hpp"

namespace tessera::harness {

namespace {

// 53 random bits -> [0, 1).
double unit(std::uint64_t r) { return static_cast<double>(r >> 11) * 0x1.0p-53; }

// Stream separators: unrelated random words for the same (seed, i).
constexpr std::uint64_t HEAD_STREAM = 0x5EEDF00DCAFEull;
constexpr std::uint64_t VALUE_STREAM = 0xBADC0FFEEull;
constexpr std::uint64_t ZERO_STREAM = 0x2E50ull;
constexpr std::uint64_t FLAG_STREAM = 0xF1A6ull;

template <class T>
T value_from(std::uint64_t r) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(unit(r) * 2.0 - 0.75);  // U[-0.75, 1.25), like fill_random's uniform
  } else {
    T v;
    std::memcpy(&v, &r, sizeof v);
    return v;
  }
}

template <class T>
void runs(T* x, std::size_t n, std::uint64_t seed, double p) {
  if (n == 0) return;
  auto head = [&](std::size_t i) { return i == 0 || unit(mix64(seed ^ HEAD_STREAM, i)) < p; };
  auto value = [&](std::size_t h) { return value_from<T>(mix64(seed ^ VALUE_STREAM, h)); };
  constexpr std::size_t CHUNK = std::size_t(1) << 16;
  const auto chunks = static_cast<std::int64_t>((n + CHUNK - 1) / CHUNK);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t first = static_cast<std::size_t>(c) * CHUNK;
    const std::size_t last = std::min(n, first + CHUNK);
    std::size_t h = first;
    while (!head(h)) --h;  // the run this chunk starts in (element 0 is a head)
    T v = value(h);
    for (std::size_t i = first; i < last; ++i) {
      if (head(i)) v = value(i);
      x[i] = v;
    }
  }
}

template <class T>
std::uint64_t threshold(const T* x, std::size_t n, double fraction) {
  std::uint64_t bits = 0;
  if (n == 0) return bits;
  constexpr std::size_t SAMPLE = 65536;
  std::vector<T> s;
  const std::size_t step = std::max<std::size_t>(1, n / SAMPLE);
  for (std::size_t i = 0; i < n && s.size() < SAMPLE; i += step) s.push_back(x[i]);
  std::sort(s.begin(), s.end());
  // About `fraction` of the sample lies above s[k].
  const double pos = (1.0 - fraction) * static_cast<double>(s.size());
  std::size_t k = pos <= 0 ? 0 : static_cast<std::size_t>(pos);
  k = std::min(k, s.size() - 1);
  T t = s[k];
  if (fraction >= 1.0) {  // everything: one below the minimum, where the type allows
    if constexpr (std::is_floating_point_v<T>) t = s.front() - T(1);
    else if (s.front() > std::numeric_limits<T>::lowest()) t = static_cast<T>(s.front() - 1);
  }
  std::memcpy(&bits, &t, sizeof t);
  return bits;
}

template <class T>
void zeros(T* x, std::size_t n, std::uint64_t seed, double keep) {
  const auto sn = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 1; i < sn; ++i)
    if (unit(mix64(seed ^ ZERO_STREAM, static_cast<std::uint64_t>(i))) >= keep) x[i] = T(0);
}

}  // namespace

void fill_runs(void* data, Dtype type, std::size_t n, std::uint64_t seed, double head_prob) {
  compose_impl::dispatch_any_type(type, [&]<class T>() { runs(static_cast<T*>(data), n, seed, head_prob); });
}

std::uint64_t threshold_for_fraction(const void* data, Dtype type, std::size_t n, double fraction) {
  std::uint64_t bits = 0;
  compose_impl::dispatch_any_type(type, [&]<class T>() { bits = threshold(static_cast<const T*>(data), n, fraction); });
  return bits;
}

void zero_fraction(void* data, Dtype type, std::size_t n, std::uint64_t seed, double keep) {
  compose_impl::dispatch_any_type(type, [&]<class T>() { zeros(static_cast<T*>(data), n, seed, keep); });
}

void fill_flags(std::uint8_t* flags, std::size_t n, std::uint64_t seed, double fraction) {
  const auto sn = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < sn; ++i) {
    const std::uint64_t r = mix64(seed ^ FLAG_STREAM, static_cast<std::uint64_t>(i));
    flags[i] = unit(r) < fraction ? static_cast<std::uint8_t>((r & 0xFF) | 1) : std::uint8_t(0);
  }
}

}  // namespace tessera::harness
