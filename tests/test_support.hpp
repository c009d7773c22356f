// Helpers shared by the reduce tests: the (dtype, op, accum) combinations, an
// independent reference (long double / exact integer arithmetic, written here
// rather than taken from the library), the float-sum tolerance and a few
// assertion helpers.
//
// Tolerance on float sums (relative to sum |x_i|, computed in long double):
//
//   |got - exact| <= (eps_out + eps_acc * (16 + 4 * sqrt(n))) * sum |x_i|
//
//   eps_out  unit roundoff of the result type: the final rounding
//            (float 2^-24, double 2^-53);
//   eps_acc  native float 2^-24, native double 2^-53; float sums with a wider
//            accumulator (double, Kahan, double-float) 2^-44.
//
// The sqrt(n) term covers rounding errors growing along the longest serial
// chain of any variant on random inputs (each serial chain is a random walk
// of roundings); 16 covers the depth of the combining tree. Written as
// !(err <= tol) so that a NaN result fails.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tessera/blocks/reducers.hpp"
#include "families/reduce/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/types.hpp"
#include "tessera/reduce.hpp"

namespace tessera_test {

using tessera::Accum;
using tessera::Dtype;
using tessera::Op;
using tessera::reduce_result_t;

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the float references need a long double with at least 64 mantissa bits");

// ---- combinations ----------------------------------------------------------

struct Combo {
  Dtype dtype;
  Op op;
  Accum accum;
};

inline constexpr Dtype kDtypes[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64};
inline constexpr Op kOps[] = {Op::sum, Op::min, Op::max};
inline constexpr Accum kAccums[] = {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat};

// All 4 x 3 x 4 combinations, supported or not.
inline std::vector<Combo> all_combos() {
  std::vector<Combo> v;
  for (Dtype t : kDtypes)
    for (Op op : kOps)
      for (Accum a : kAccums) v.push_back({t, op, a});
  return v;
}

// The semantics as documented: a non-native accumulator only for float sums,
// plus Accum::f64 for double sums (which is their native accumulator).
inline bool documented_supported(const Combo& c) {
  if (c.accum == Accum::native) return true;
  if (c.op != Op::sum) return false;
  if (c.dtype == Dtype::f32) return true;
  return c.dtype == Dtype::f64 && c.accum == Accum::f64;
}

inline bool dispatch_supported(const Combo& c) {
  return tessera::dispatch_reducer(c.dtype, c.op, c.accum, []<class>() {});
}

inline tessera::reduce_impl::ReduceSpec spec_of(const Combo& c, std::size_t n) {
  return {c.dtype, c.op, c.accum, n};
}

inline std::string combo_name(const Combo& c) {
  std::string s(tessera::to_string(c.dtype));
  s += "_";
  s += tessera::to_string(c.op);
  s += "_";
  s += tessera::to_string(c.accum);
  return s;
}

// A gtest-safe identifier: [A-Za-z0-9_] only.
inline std::string identifier(std::string_view s) {
  std::string out;
  for (char ch : s) out += (std::isalnum(static_cast<unsigned char>(ch)) != 0) ? ch : '_';
  return out;
}

// Seeds: a different one for every case, stable from run to run.
inline std::uint64_t seed_for(std::string_view what, std::size_t n, std::uint64_t salt = 0) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char ch : what) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  h ^= static_cast<std::uint64_t>(n) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= salt * 0xD6E8FEB86659FD93ull;
  return h;
}

// ---- dtype dispatch for test code -------------------------------------------

// f.template operator()<T>() for the element type of `t`.
template <class F>
void with_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); return;
    case Dtype::f64: f.template operator()<double>(); return;
    case Dtype::i32: f.template operator()<std::int32_t>(); return;
    case Dtype::i64: f.template operator()<std::int64_t>(); return;
    default: return;
  }
}

// ---- reference -------------------------------------------------------------

// The result of reducing nothing.
template <class T>
reduce_result_t<T> identity_of(Op op) {
  using R = reduce_result_t<T>;
  switch (op) {
    case Op::sum: return R(0);
    case Op::min:
      if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
      else return static_cast<R>(std::numeric_limits<T>::max());
    case Op::max:
      if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
      else return static_cast<R>(std::numeric_limits<T>::min());
  }
  return R(0);
}

template <class T>
struct Reference {
  reduce_result_t<T> value{};  // exact result (integers, min/max); rounded sum for floats
  long double exact = 0;       // float sums: the sum, with compensation in long double
  long double abs_sum = 0;     // float sums: sum of |x_i|
};

// Independent, simple computation of the expected result.
template <class T>
Reference<T> reference(const T* x, std::size_t n, Op op) {
  using R = reduce_result_t<T>;
  Reference<T> ref;
  if (op == Op::sum) {
    if constexpr (std::is_floating_point_v<T>) {
      // Neumaier's compensated summation in long double: for n <= 2^32 random
      // inputs its error is far below 2^-53 * sum |x_i|.
      long double s = 0, c = 0, a = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const long double v = x[i];
        const long double t = s + v;
        c += (std::fabs(s) >= std::fabs(v)) ? (s - t) + v : (v - t) + s;
        s = t;
        a += std::fabs(v);
      }
      ref.exact = s + c;
      ref.abs_sum = a;
      ref.value = static_cast<R>(ref.exact);
    } else {
      std::uint64_t s = 0;  // modulo 2^64
      for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint64_t>(static_cast<std::int64_t>(x[i]));
      std::int64_t v;
      std::memcpy(&v, &s, sizeof v);
      ref.value = v;
    }
    return ref;
  }
  // min / max: NaN wins, otherwise the extreme value.
  T m{};
  bool have = false, nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x[i])) {
        nan = true;
        break;
      }
    }
    if (!have || (op == Op::min ? x[i] < m : x[i] > m)) m = x[i];
    have = true;
  }
  if (nan) ref.value = std::numeric_limits<R>::quiet_NaN();
  else if (!have) ref.value = identity_of<T>(op);
  else ref.value = static_cast<R>(m);
  return ref;
}

// ---- checks ----------------------------------------------------------------

inline long double eps_out(Dtype t) { return t == Dtype::f32 ? 0x1.0p-24L : 0x1.0p-53L; }
inline long double eps_acc(Dtype t, Accum a) {
  if (t == Dtype::f64) return 0x1.0p-53L;
  return a == Accum::native ? 0x1.0p-24L : 0x1.0p-44L;
}

// Allowed |got - exact| for a float sum (see the top of this file).
inline long double sum_tolerance(Dtype t, Accum a, std::size_t n, long double abs_sum) {
  return (eps_out(t) + eps_acc(t, a) * (16.0L + 4.0L * std::sqrt(static_cast<long double>(n)))) * abs_sum;
}

template <class V>
std::string show(V v) {
  std::ostringstream os;
  if constexpr (std::is_floating_point_v<V>) {
    os.precision(std::numeric_limits<V>::max_digits10);
    os << v << " (" << std::hexfloat << v << ")";
  } else {
    os << v;
  }
  return os.str();
}

// Whether `got` is the right answer for the input summarised by `ref`.
template <class T>
::testing::AssertionResult check_result(reduce_result_t<T> got, const Reference<T>& ref, Op op, Accum accum,
                                        std::size_t n) {
  using R = reduce_result_t<T>;
  if constexpr (std::is_floating_point_v<R>) {
    if (op != Op::sum || n <= 1) {
      // min/max are exact; so is the sum of a single element or of none.
      const bool ok = (std::isnan(ref.value) && std::isnan(got)) || got == ref.value;
      if (ok) return ::testing::AssertionSuccess();
      return ::testing::AssertionFailure() << "got " << show(got) << ", expected exactly " << show(ref.value);
    }
    const long double err = std::fabs(static_cast<long double>(got) - ref.exact);
    const long double tol = sum_tolerance(tessera::dtype_of<T>(), accum, n, ref.abs_sum);
    if (!(err <= tol))
      return ::testing::AssertionFailure()
             << "got " << show(got) << ", exact " << show(static_cast<double>(ref.exact)) << ": |error| "
             << static_cast<double>(err) << " > tolerance " << static_cast<double>(tol) << " (sum|x| "
             << static_cast<double>(ref.abs_sum) << ", error/sum|x| "
             << static_cast<double>(err / (ref.abs_sum > 0 ? ref.abs_sum : 1)) << ")";
    return ::testing::AssertionSuccess();
  } else {
    if (got == ref.value) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << ", expected exactly " << ref.value;
  }
}

// HasSubstr-style check on an exception message.
inline ::testing::AssertionResult has_substr(std::string_view text, std::string_view needle) {
  if (text.find(needle) != std::string_view::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "message \"" << text << "\" does not contain \"" << needle << "\"";
}

// Runs `f`, which must throw tessera::Error; returns its message ("" and a
// failure otherwise).
template <class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const tessera::Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-tessera exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "did not throw tessera::Error";
  return {};
}

}  // namespace tessera_test
