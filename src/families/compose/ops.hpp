// The element operations of the compositions, host and device: the map
// functions, the absolute difference, the selection predicates and the run
// boundary test. CPU rungs and kernels call the same functions, so every
// backend computes bit-identical elements (the checks compare bitwise).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/hd.hpp"
#include "tessera/compact.hpp"
#include "tessera/map.hpp"

namespace tessera::compose_impl {

// y = f(x). Integers in the unsigned type of the same width: wraps modulo
// 2^bits instead of overflowing.
template <class T>
TESSERA_HD T map_apply(MapFn fn, T x) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U u = static_cast<U>(x);
    return static_cast<T>(fn == MapFn::twice ? static_cast<U>(u + u) : static_cast<U>(u * u));
  } else {
    return fn == MapFn::twice ? x + x : x * x;
  }
}

// |a - b|: floats rounded once (IEEE subtraction) and the sign cleared;
// integers exactly, in the unsigned type.
template <class T>
TESSERA_HD absdiff_t<T> absdiff(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    return ::fabsf(a - b);
  } else if constexpr (std::is_same_v<T, double>) {
    return ::fabs(a - b);
  } else {
    using U = absdiff_t<T>;
    return a > b ? static_cast<U>(static_cast<U>(a) - static_cast<U>(b))
                 : static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
  }
}

// The selection predicate, chosen at run time (a uniform branch in kernels).
// NaN is non-zero and never greater; -0 is zero; `even` is false for floats
// (the API rejects it for them).
template <class T>
TESSERA_HD bool passes(Pred p, T x, T threshold) {
  switch (p) {
    case Pred::greater: return x > threshold;
    case Pred::nonzero: return x != T(0);
    case Pred::even:
      if constexpr (std::is_integral_v<T>) return (x & T(1)) == T(0);
      else return false;
  }
  return false;
}

// Whether x[i] starts a new run given x[i-1] (== on the values: every NaN is
// its own run, -0 continues a run of +0).
template <class T>
TESSERA_HD bool differs(T prev, T x) {
  return !(x == prev);
}

}  // namespace tessera::compose_impl
