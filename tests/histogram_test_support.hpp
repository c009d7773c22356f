// Helpers shared by the histogram tests: an independent reference (the
// documented bin rule written out again here, not taken from the library),
// input makers with special values, and comparisons that name the first
// differing bins.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "families/histogram/contract.hpp"

namespace histogram_test {

using tessera::Dtype;
using tessera::histogram_impl::HistogramSpec;

struct Expected {
  std::vector<std::uint32_t> counts;
  std::uint32_t out_of_range = 0;
};

// The rule of docs/histogram.md, written independently: lo <= x < hi, then
// int((x - lo) * (float(bins) / (hi - lo))) in float, clamped to bins - 1.
inline int float_bin(float x, int bins, float lo, float hi) {
  if (!(x >= lo) || !(x < hi)) return -1;
  const float range = hi - lo;
  const float scale = static_cast<float>(bins) / range;
  const float offset = x - lo;
  const float scaled = offset * scale;
  const int b = static_cast<int>(scaled);
  return b >= bins ? bins - 1 : b;
}

inline Expected expected_bytes(const std::uint8_t* x, std::size_t n) {
  Expected e;
  e.counts.assign(256, 0u);
  for (std::size_t i = 0; i < n; ++i) ++e.counts[x[i]];
  return e;
}

inline Expected expected_floats(const float* x, std::size_t n, int bins, float lo, float hi) {
  Expected e;
  e.counts.assign(static_cast<std::size_t>(bins), 0u);
  for (std::size_t i = 0; i < n; ++i) {
    const int b = float_bin(x[i], bins, lo, hi);
    if (b < 0) ++e.out_of_range;
    else ++e.counts[static_cast<std::size_t>(b)];
  }
  return e;
}

inline Expected expected_for(const HistogramSpec& s, const void* x) {
  if (s.dtype == Dtype::u8) return expected_bytes(static_cast<const std::uint8_t*>(x), s.n);
  return expected_floats(static_cast<const float*>(x), s.n, s.bins, s.lo, s.hi);
}

// Every bin and the out-of-range count equal; names the first few that differ.
inline ::testing::AssertionResult same_counts(const std::uint32_t* got, std::uint32_t got_oor, const Expected& e) {
  std::ostringstream diff;
  int wrong = 0;
  for (std::size_t b = 0; b < e.counts.size(); ++b)
    if (got[b] != e.counts[b] && wrong++ < 4) diff << " bin " << b << ": got " << got[b] << ", expected " << e.counts[b] << ";";
  if (got_oor != e.out_of_range) {
    ++wrong;
    diff << " out_of_range: got " << got_oor << ", expected " << e.out_of_range << ";";
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << wrong << " wrong:" << diff.str();
}

// Seeds: a different one for every case, stable from run to run (FNV-1a).
inline std::uint64_t seed_for(const std::string& what, std::size_t n, std::uint64_t salt = 0) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char ch : what) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  return h ^ (n * 0x9E3779B97F4A7C15ull) ^ (salt * 0xD6E8FEB86659FD93ull);
}

// Random floats of a distribution with special values every 61st element:
// NaN, +-inf, lo, hi, the float below hi, the float below lo, -0.
inline std::vector<float> floats_with_specials(std::size_t n, float lo, float hi, std::uint64_t seed,
                                               tessera::harness::Distribution dist) {
  std::vector<float> x(n);
  tessera::harness::fill_random(x.data(), n, seed, dist);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), lo, hi, std::nextafter(hi, lo),
                            std::nextafter(lo, -std::numeric_limits<float>::infinity()), -0.0f};
  for (std::size_t i = 0; i < n; i += 61) x[i] = specials[(i / 61) % (sizeof(specials) / sizeof(specials[0]))];
  return x;
}

}  // namespace histogram_test
