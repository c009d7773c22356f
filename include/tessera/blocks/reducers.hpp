// Reduction operators with their accumulator state, shared by the CPU
// variants, every CUDA rung and the tests (host + device).
//
// A Reducer R has:
//   using in_t   = element type read from memory
//   using acc_t  = running state (may be a struct: Kahan, double-float)
//   using out_t  = result type written to the output (reduce_result_t)
//   identity()          -> acc_t        neutral element
//   lift(in_t)          -> acc_t        one element as a state
//   add(acc_t&, in_t)                   fold one element in (the hot loop)
//   combine(acc_t, acc_t) -> acc_t      merge two partial states
//   finish(acc_t)       -> out_t        round the state to the result
//
// Semantics (documented in docs/reduce.md):
// - integer sums wrap modulo 2^64 (computed in uint64_t, so no UB) and return
//   int64: exact for int32 inputs, two's-complement exact for int64;
// - min/max propagate NaN (any NaN in the input gives NaN);
// - float sums accumulate in float, double, Kahan-compensated float or
//   double-float (float2 with error-free transformations, seed 002).
// Nothing here may be compiled with fast-math: two_sum relies on IEEE rounding.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "tessera/blocks/hd.hpp"
#include "tessera/core/types.hpp"
#include "tessera/reduce.hpp"  // reduce_result_t

namespace tessera {

namespace detail {

// Error-free transformations (Knuth two-sum, Dekker fast-two-sum).
template <class F>
TESSERA_HD void two_sum(F a, F b, F& s, F& e) {
  s = a + b;
  F bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}
template <class F>  // requires |a| >= |b| (or a == 0)
TESSERA_HD void fast_two_sum(F a, F b, F& s, F& e) {
  s = a + b;
  e = b - (s - a);
}

template <class T> struct Limits;
template <> struct Limits<float> {
  static TESSERA_HD float lowest() { return -__builtin_huge_valf(); }
  static TESSERA_HD float highest() { return __builtin_huge_valf(); }
};
template <> struct Limits<double> {
  static TESSERA_HD double lowest() { return -__builtin_huge_val(); }
  static TESSERA_HD double highest() { return __builtin_huge_val(); }
};
template <> struct Limits<std::int32_t> {
  static TESSERA_HD std::int32_t lowest() { return INT32_MIN; }
  static TESSERA_HD std::int32_t highest() { return INT32_MAX; }
};
template <> struct Limits<std::int64_t> {
  static TESSERA_HD std::int64_t lowest() { return INT64_MIN; }
  static TESSERA_HD std::int64_t highest() { return INT64_MAX; }
};
template <> struct Limits<std::uint32_t> {  // scans of uint32 (min/max)
  static TESSERA_HD std::uint32_t lowest() { return 0u; }
  static TESSERA_HD std::uint32_t highest() { return UINT32_MAX; }
};

template <class T> TESSERA_HD bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

}  // namespace detail

// Compensated-float state: the true sum is approximately s - c.
struct KahanState {
  float s, c;
};
// Double-float state: the true sum is approximately hi + lo, |lo| <= ulp(hi)/2.
struct DFloatState {
  float hi, lo;
};

// ---- sums --------------------------------------------------------------

// Plain sum in accumulator type A (float in float, float in double, ...).
template <class T, class A>
struct PlainSum {
  using in_t = T;
  using acc_t = A;
  using out_t = reduce_result_t<T>;
  static TESSERA_HD acc_t identity() { return A(0); }
  static TESSERA_HD acc_t lift(T x) { return static_cast<A>(x); }
  static TESSERA_HD void add(acc_t& a, T x) { a += static_cast<A>(x); }
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) { return a + b; }
  static TESSERA_HD out_t finish(acc_t a) { return static_cast<out_t>(a); }
};

// Integer sum: wraps modulo 2^64 in unsigned arithmetic (defined behaviour),
// result reinterpreted as int64.
template <class T>
struct IntSum {
  using in_t = T;
  using acc_t = std::uint64_t;
  using out_t = std::int64_t;
  static TESSERA_HD acc_t identity() { return 0; }
  static TESSERA_HD acc_t lift(T x) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(x)); }
  static TESSERA_HD void add(acc_t& a, T x) { a += lift(x); }
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) { return a + b; }
  static TESSERA_HD out_t finish(acc_t a) { return static_cast<std::int64_t>(a); }
};

struct KahanSum {
  using in_t = float;
  using acc_t = KahanState;
  using out_t = float;
  static TESSERA_HD acc_t identity() { return {0.0f, 0.0f}; }
  static TESSERA_HD acc_t lift(float x) { return {x, 0.0f}; }
  static TESSERA_HD void add(acc_t& a, float x) {
    float y = x - a.c;
    float t = a.s + y;
    a.c = (t - a.s) - y;
    a.s = t;
  }
  // (s1 - c1) + (s2 - c2): two-sum of the leading parts, the rounding error
  // folded into the compensation, then renormalised.
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) {
    float s, e;
    detail::two_sum(a.s, b.s, s, e);
    float c = (a.c + b.c) - e;
    float t = s - c;
    return {t, (t - s) + c};
  }
  static TESSERA_HD out_t finish(acc_t a) { return a.s - a.c; }
};

struct DFloatSum {
  using in_t = float;
  using acc_t = DFloatState;
  using out_t = float;
  static TESSERA_HD acc_t identity() { return {0.0f, 0.0f}; }
  static TESSERA_HD acc_t lift(float x) { return {x, 0.0f}; }
  static TESSERA_HD void add(acc_t& a, float x) {
    float s, e;
    detail::two_sum(a.hi, x, s, e);
    e += a.lo;
    detail::fast_two_sum(s, e, a.hi, a.lo);
  }
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) {
    float s, e;
    detail::two_sum(a.hi, b.hi, s, e);
    e += a.lo + b.lo;
    acc_t r;
    detail::fast_two_sum(s, e, r.hi, r.lo);
    return r;
  }
  static TESSERA_HD out_t finish(acc_t a) { return a.hi + a.lo; }
};

// ---- min / max ---------------------------------------------------------

template <class T>
struct MinOp {
  using in_t = T;
  using acc_t = T;
  using out_t = reduce_result_t<T>;
  static TESSERA_HD acc_t identity() { return detail::Limits<T>::highest(); }
  static TESSERA_HD acc_t lift(T x) { return x; }
  // NaN-propagating and independent of argument order for non-NaN values
  // (up to the sign of zero).
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) { return (a < b || detail::is_nan(a)) ? a : b; }
  static TESSERA_HD void add(acc_t& a, T x) { a = combine(a, x); }
  static TESSERA_HD out_t finish(acc_t a) { return static_cast<out_t>(a); }
};

template <class T>
struct MaxOp {
  using in_t = T;
  using acc_t = T;
  using out_t = reduce_result_t<T>;
  static TESSERA_HD acc_t identity() { return detail::Limits<T>::lowest(); }
  static TESSERA_HD acc_t lift(T x) { return x; }
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) { return (a > b || detail::is_nan(a)) ? a : b; }
  static TESSERA_HD void add(acc_t& a, T x) { a = combine(a, x); }
  static TESSERA_HD out_t finish(acc_t a) { return static_cast<out_t>(a); }
};

// Calls f.template operator()<Reducer>() for the reducer that implements
// (dtype, op, accum); returns false when the combination is not supported
// (accumulator choices other than native apply to float sums only, plus
// double accumulation of doubles which is native anyway).
template <class F>
bool dispatch_reducer(Dtype t, Op op, Accum acc, F&& f) {
  const bool native = acc == Accum::native;
  switch (t) {
    case Dtype::f32:
      if (op == Op::sum) {
        switch (acc) {
          case Accum::native: f.template operator()<PlainSum<float, float>>(); return true;
          case Accum::f64: f.template operator()<PlainSum<float, double>>(); return true;
          case Accum::kahan: f.template operator()<KahanSum>(); return true;
          case Accum::dfloat: f.template operator()<DFloatSum>(); return true;
        }
        return false;
      }
      if (!native) return false;
      if (op == Op::min) f.template operator()<MinOp<float>>();
      else f.template operator()<MaxOp<float>>();
      return true;
    case Dtype::f64:
      if (!(native || (op == Op::sum && acc == Accum::f64))) return false;
      if (op == Op::sum) f.template operator()<PlainSum<double, double>>();
      else if (op == Op::min) f.template operator()<MinOp<double>>();
      else f.template operator()<MaxOp<double>>();
      return true;
    case Dtype::i32:
      if (!native) return false;
      if (op == Op::sum) f.template operator()<IntSum<std::int32_t>>();
      else if (op == Op::min) f.template operator()<MinOp<std::int32_t>>();
      else f.template operator()<MaxOp<std::int32_t>>();
      return true;
    case Dtype::i64:
      if (!native) return false;
      if (op == Op::sum) f.template operator()<IntSum<std::int64_t>>();
      else if (op == Op::min) f.template operator()<MinOp<std::int64_t>>();
      else f.template operator()<MaxOp<std::int64_t>>();
      return true;
    default: return false;  // uint8/uint32: not reduce types
  }
}

}  // namespace tessera
