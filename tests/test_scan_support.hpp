// Helpers shared by the scan tests: the (dtype, op, accum) combinations, an
// independent reference written here (long double / exact integer
// arithmetic, not the library's), and an element-by-element check.
//
// Tolerance on float sums, per output i (m_i terms whose magnitudes add to
// A_i, computed in long double):
//
//   |got_i - exact_i| <= (2 eps_out + eps_acc * (16 + 4 sqrt(m_i))) * A_i
//
// eps_out and eps_acc as in test_support.hpp. Two output roundings: the
// output itself, and the multi-level rungs' rounding of a section's local
// scan to the output type before the section prefix is added. Written
// !(err <= tol): NaN fails. Integer scans and min/max must match exactly.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/blocks/scan_ops.hpp"
#include "families/scan/contract.hpp"
#include "test_support.hpp"

namespace tessera_test {

struct ScanCombo {
  Dtype dtype;
  Op op;
  Accum accum;
};

inline constexpr Dtype kScanDtypes[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32};

// Every combination the documentation promises (the accumulator choice for
// float sums; double accepts `double`, its native one).
inline std::vector<ScanCombo> scan_combos() {
  std::vector<ScanCombo> v;
  for (Dtype t : kScanDtypes)
    for (Op op : kOps)
      for (Accum a : kAccums) {
        const bool ok = a == Accum::native || (op == Op::sum && (t == Dtype::f32 || (t == Dtype::f64 && a == Accum::f64)));
        if (ok) v.push_back({t, op, a});
      }
  return v;
}

inline std::string scan_combo_name(const ScanCombo& c) {
  return std::string(tessera::to_string(c.dtype)) + "_" + std::string(tessera::to_string(c.op)) + "_" +
         std::string(tessera::to_string(c.accum));
}

inline tessera::scan_impl::ScanSpec scan_spec(const ScanCombo& c, bool exclusive, std::size_t n) {
  return {c.dtype, c.op, c.accum, exclusive, n};
}

template <class F>
void with_scan_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); return;
    case Dtype::f64: f.template operator()<double>(); return;
    case Dtype::i32: f.template operator()<std::int32_t>(); return;
    case Dtype::i64: f.template operator()<std::int64_t>(); return;
    case Dtype::u32: f.template operator()<std::uint32_t>(); return;
    default: return;
  }
}

template <class T>
T scan_identity(Op op) {
  if (op == Op::sum) return T(0);
  if constexpr (std::is_floating_point_v<T>)
    return op == Op::min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  else return op == Op::min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
}

// The expected scan: exact values for integers and min/max; for float sums
// the compensated long double value and the magnitude mass of each output.
template <class T>
struct ScanReference {
  std::vector<T> exact;              // integer sums, min, max
  std::vector<long double> value;    // float sums
  std::vector<long double> mass;     // float sums: sum of |x_j| over the output's terms
};

template <class T>
ScanReference<T> scan_reference(const T* x, std::size_t n, Op op, bool exclusive) {
  ScanReference<T> r;
  if (op == Op::sum && std::is_floating_point_v<T>) {
    r.value.resize(n);
    r.mass.resize(n);
    long double s = 0, c = 0, a = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (exclusive) {
        r.value[i] = s + c;
        r.mass[i] = a;
      }
      const long double v = x[i];
      const long double t = s + v;
      c += (std::fabs(s) >= std::fabs(v)) ? (s - t) + v : (v - t) + s;
      s = t;
      a += std::fabs(v);
      if (!exclusive) {
        r.value[i] = s + c;
        r.mass[i] = a;
      }
    }
    return r;
  }
  r.exact.resize(n);
  if constexpr (std::is_integral_v<T>) {
    if (op == Op::sum) {
      using U = std::make_unsigned_t<T>;
      U s = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (exclusive) r.exact[i] = static_cast<T>(s);
        s = static_cast<U>(s + static_cast<U>(x[i]));
        if (!exclusive) r.exact[i] = static_cast<T>(s);
      }
      return r;
    }
  }
  // min / max: NaN, once seen, stays.
  T m = scan_identity<T>(op);
  bool nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    const auto put = [&] {
      if constexpr (std::is_floating_point_v<T>) r.exact[i] = nan ? std::numeric_limits<T>::quiet_NaN() : m;
      else r.exact[i] = m;
    };
    if (exclusive) put();
    if constexpr (std::is_floating_point_v<T>) nan = nan || std::isnan(x[i]);
    if (op == Op::min ? x[i] < m : x[i] > m) m = x[i];
    if (!exclusive) put();
  }
  return r;
}

inline long double scan_tolerance(Dtype t, Accum a, std::size_t terms, long double mass) {
  return (2 * eps_out(t) + eps_acc(t, a) * (16.0L + 4.0L * std::sqrt(static_cast<long double>(terms)))) * mass;
}

// Every output against the reference; reports the first few failures.
template <class T>
::testing::AssertionResult check_scan(const T* got, const ScanReference<T>& ref, std::size_t n, const ScanCombo& c,
                                      bool exclusive) {
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < n; ++i) {
    bool ok;
    std::string expected;
    if (!ref.value.empty()) {
      const long double err = std::fabs(static_cast<long double>(got[i]) - ref.value[i]);
      const long double tol = scan_tolerance(c.dtype, c.accum, exclusive ? i : i + 1, ref.mass[i]);
      ok = err <= tol;
      if (!ok && bad == 0)
        expected = show(static_cast<double>(ref.value[i])) + " within " + std::to_string(static_cast<double>(tol));
    } else {
      if constexpr (std::is_floating_point_v<T>) ok = got[i] == ref.exact[i] || (std::isnan(got[i]) && std::isnan(ref.exact[i]));
      else ok = got[i] == ref.exact[i];
      if (!ok && bad == 0) expected = show(ref.exact[i]);
    }
    if (!ok) {
      if (bad == 0) first = "out[" + std::to_string(i) + "] = " + show(got[i]) + ", expected " + expected;
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << n << " outputs wrong; first: " << first;
}

}  // namespace tessera_test
