// Helpers shared by the batched_scan tests: an independent reference (plain
// long double, written here rather than taken from the library), the
// tolerance of docs/batched_scan.md, padded row buffers with sentinel gaps,
// and a checker that also proves nothing outside the output rows changed.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/core/types.hpp"

namespace scan_test {

using tessera::Accum;
using tessera::ScanDirection;

inline constexpr Accum kAccums[] = {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat};
inline constexpr ScanDirection kDirections[] = {ScanDirection::forward, ScanDirection::backward,
                                                ScanDirection::forward_backward};

// Gap samples between len and the pitch hold this NaN; a separate output
// buffer starts as all-ones bits (another NaN).
inline constexpr std::uint32_t kGapBits = 0x7FC0BEEFu;
inline constexpr std::uint32_t kPoisonBits = 0xFFFFFFFFu;

struct Layout {
  std::size_t rows, len, in_pitch, out_pitch;
  std::size_t in_off = 0, out_off = 0;
  bool in_place = false;
};

inline std::string describe(const Layout& l, ScanDirection d, bool excl, Accum a) {
  std::ostringstream os;
  os << tessera::to_string(d) << (excl ? " exclusive" : " inclusive") << " " << tessera::to_string(a) << " "
     << l.rows << "x" << l.len << " pitch " << l.in_pitch << "/" << l.out_pitch << " off " << l.in_off << "/"
     << l.out_off << (l.in_place ? " in place" : "");
  return os.str();
}

// rows x len uniform random samples (seeded).
inline std::vector<float> random_rows(std::size_t rows, std::size_t len, std::uint64_t seed) {
  std::vector<float> v(rows * len + 1);
  tessera::harness::fill_random(v.data(), rows * len, seed, tessera::harness::Distribution::uniform);
  v.resize(rows * len);
  return v;
}

inline std::size_t buffer_elems(std::size_t off, std::size_t rows, std::size_t pitch, std::size_t len) {
  return off + (rows == 0 ? 0 : (rows - 1) * pitch + len) + 1;
}

// Independent reference: two plain long double passes per row (64-bit
// mantissa: its own error is far below the tolerances at test sizes).
inline void reference(const float* x, std::size_t len, ScanDirection d, bool excl, std::vector<long double>& y,
                      std::vector<long double>& scale) {
  y.assign(len, 0);
  scale.assign(len, 0);
  std::vector<long double> f(len), fa(len);
  auto pass = [&](const auto& in, std::vector<long double>& out, bool reverse) {
    long double run = 0;
    for (std::size_t k = 0; k < len; ++k) {
      const std::size_t i = reverse ? len - 1 - k : k;
      const long double before = run;
      run += in(i);
      out[i] = excl ? before : run;
    }
  };
  auto xv = [&](std::size_t i) { return static_cast<long double>(x[i]); };
  auto xa = [&](std::size_t i) { return std::fabs(static_cast<long double>(x[i])); };
  if (d == ScanDirection::forward_backward) {
    pass(xv, f, false);
    pass(xa, fa, false);
    pass([&](std::size_t i) { return f[i]; }, y, true);
    pass([&](std::size_t i) { return fa[i]; }, scale, true);
  } else {
    pass(xv, y, d == ScanDirection::backward);
    pass(xa, scale, d == ScanDirection::backward);
  }
}

inline long double acc_eps(Accum a) {
  switch (a) {
    case Accum::native: return 0x1.0p-24L;
    case Accum::f64: return 0x1.0p-53L;
    default: return 0x1.0p-44L;
  }
}

// (u_out + k (u_acc (16 + 4 sqrt(L)) + [Kahan] 2u)) relative to the same scan of |x|.
inline long double rel_tolerance(Accum a, ScanDirection d, std::size_t len) {
  const long double k = d == ScanDirection::forward_backward ? 2.0L : 1.0L;
  const long double kahan_step = a == Accum::kahan ? 0x1.0p-23L : 0.0L;  // Kahan: (2u + O(L u^2)) sum |x|
  return 0x1.0p-24L + k * (acc_eps(a) * (16.0L + 4.0L * std::sqrt(static_cast<long double>(len))) + kahan_step);
}

// Input rows: the data of `rows0` (rows x len, compact) placed at the layout's
// input pitch/offset, gaps set to kGapBits.
inline std::vector<float> make_input(const Layout& l, const std::vector<float>& rows0) {
  std::vector<float> buf(buffer_elems(l.in_off, l.rows, l.in_pitch, l.len), std::bit_cast<float>(kGapBits));
  for (std::size_t r = 0; r < l.rows; ++r)
    for (std::size_t i = 0; i < l.len; ++i) buf[l.in_off + r * l.in_pitch + i] = rows0[r * l.len + i];
  return buf;
}

// Checks `out_buf` (the whole output buffer after the run: the input buffer
// in place) against the reference of `rows0`; `before` is the buffer's
// content before the run (so untouched elements can be compared bitwise).
inline ::testing::AssertionResult check_output(const Layout& l, ScanDirection d, bool excl, Accum a,
                                               const std::vector<float>& rows0, const std::vector<float>& before,
                                               const std::vector<float>& out_buf) {
  const std::size_t off = l.in_place ? l.in_off : l.out_off;
  const std::size_t pitch = l.in_place ? l.in_pitch : l.out_pitch;
  if (out_buf.size() != before.size()) return ::testing::AssertionFailure() << "buffer size changed";
  std::vector<char> is_out(out_buf.size(), 0);
  for (std::size_t r = 0; r < l.rows; ++r)
    for (std::size_t i = 0; i < l.len; ++i) is_out[off + r * pitch + i] = 1;
  for (std::size_t k = 0; k < out_buf.size(); ++k)
    if (!is_out[k] && std::bit_cast<std::uint32_t>(out_buf[k]) != std::bit_cast<std::uint32_t>(before[k]))
      return ::testing::AssertionFailure() << "element " << k << " outside the output rows was written";
  const long double tol = rel_tolerance(a, d, l.len);
  std::vector<long double> y, s;
  for (std::size_t r = 0; r < l.rows; ++r) {
    reference(rows0.data() + r * l.len, l.len, d, excl, y, s);
    for (std::size_t i = 0; i < l.len; ++i) {
      const long double got = out_buf[off + r * pitch + i];
      const long double err = std::fabs(got - y[i]);
      if (!(err <= tol * s[i]))
        return ::testing::AssertionFailure() << "row " << r << " sample " << i << ": got " << static_cast<double>(got)
                                             << ", expected " << static_cast<double>(y[i]) << " (|error| "
                                             << static_cast<double>(err) << " > tolerance "
                                             << static_cast<double>(tol * s[i]) << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// Layouts every rung must handle: compact, pitched (odd pitches: every row
// differently aligned), misaligned bases, in place.
inline std::vector<Layout> layouts_for(std::size_t rows, std::size_t len) {
  return {
      {rows, len, len, len},
      {rows, len, len + 1, len + 3, 1, 2},
      {rows, len, len + 4, len, 3, 0},
      {rows, len, len, len, 0, 0, true},
      {rows, len, len + 3, len + 3, 1, 1, true},
  };
}

}  // namespace scan_test
