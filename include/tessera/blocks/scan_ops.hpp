// Scans built from the reduction's reducers (common/reducers.hpp): a scan
// carries a reducer's acc_t state along the array and writes one element per
// input, in the input's own type. Host and device (the CPU rungs, every CUDA
// rung and the tests run the same arithmetic).
//
// Semantics (docs/scan.md):
// - integer sums wrap in the element's own width (int32 and uint32 modulo
//   2^32, int64 modulo 2^64): computed in the unsigned type of that width,
//   which signed data reinterprets bit for bit (WrapSum);
// - float sums accumulate in float, double, Kahan-compensated float or
//   double-float (the reduction's PlainSum / KahanSum / DFloatSum); every
//   output is the state rounded once to float;
// - min/max propagate NaN (MinOp / MaxOp); an exclusive scan starts with the
//   identity (0, or the type's largest / lowest value, +-inf for floats).
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/blocks/reducers.hpp"

namespace tessera {

// Integer sum in the unsigned type U, wrapping (defined behaviour).
template <class U>
struct WrapSum {
  static_assert(std::is_unsigned_v<U>, "WrapSum works in unsigned arithmetic");
  using in_t = U;
  using acc_t = U;
  using out_t = U;
  static TESSERA_HD acc_t identity() { return U(0); }
  static TESSERA_HD acc_t lift(U x) { return x; }
  static TESSERA_HD void add(acc_t& a, U x) { a = static_cast<U>(a + x); }
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) { return static_cast<U>(a + b); }
  static TESSERA_HD out_t finish(acc_t a) { return a; }
};

// A reducer as a scan functor (the ScanFn contract of
// src/cuda/common/warp_scan.cuh, plus the element side): elements in_t are
// lifted into acc_t states, combined in order, and written back as in_t.
template <class R>
struct ScanOf {
  using reducer = R;
  using in_t = typename R::in_t;
  using acc_t = typename R::acc_t;
  using out_t = in_t;
  TESSERA_HD acc_t identity() const { return R::identity(); }
  TESSERA_HD acc_t lift(in_t x) const { return R::lift(x); }
  TESSERA_HD acc_t combine(acc_t left, acc_t right) const { return R::combine(left, right); }
  TESSERA_HD out_t output(acc_t a) const { return static_cast<out_t>(R::finish(a)); }
};

// The states of a scan, scanned again (the block sums of the multi-level
// rungs): elements and outputs are acc_t, lift and output are the identity.
template <class R>
struct StatesOf {
  using reducer = R;
  using in_t = typename R::acc_t;
  using acc_t = typename R::acc_t;
  using out_t = typename R::acc_t;
  TESSERA_HD acc_t identity() const { return R::identity(); }
  TESSERA_HD acc_t lift(in_t x) const { return x; }
  TESSERA_HD acc_t combine(acc_t left, acc_t right) const { return R::combine(left, right); }
  TESSERA_HD out_t output(acc_t a) const { return a; }
};

// When elements already are states (native sums, wrapping sums, min, max),
// ScanOf<R> is the states scan too: reuse its kernel instantiations.
template <class R>
using states_scan_t = std::conditional_t<std::is_same_v<typename R::in_t, typename R::acc_t>, ScanOf<R>, StatesOf<R>>;

// Calls f.template operator()<R>() with the reducer R that scans (dtype, op,
// accum); returns false when the combination is not supported. Accumulators
// other than native apply to float sums (plus `double` for double sums,
// which is their native one), as for the reduction.
template <class F>
bool dispatch_scan(Dtype t, Op op, Accum acc, F&& f) {
  const bool native = acc == Accum::native;
  if (op != Op::sum) {
    if (!native) return false;
    auto minmax = [&]<class T>() {
      if (op == Op::min) f.template operator()<MinOp<T>>();
      else f.template operator()<MaxOp<T>>();
      return true;
    };
    switch (t) {
      case Dtype::f32: return minmax.template operator()<float>();
      case Dtype::f64: return minmax.template operator()<double>();
      case Dtype::i32: return minmax.template operator()<std::int32_t>();
      case Dtype::i64: return minmax.template operator()<std::int64_t>();
      case Dtype::u32: return minmax.template operator()<std::uint32_t>();
      default: return false;
    }
  }
  switch (t) {
    case Dtype::f32:
      switch (acc) {
        case Accum::native: f.template operator()<PlainSum<float, float>>(); return true;
        case Accum::f64: f.template operator()<PlainSum<float, double>>(); return true;
        case Accum::kahan: f.template operator()<KahanSum>(); return true;
        case Accum::dfloat: f.template operator()<DFloatSum>(); return true;
      }
      return false;
    case Dtype::f64:
      if (!(native || acc == Accum::f64)) return false;
      f.template operator()<PlainSum<double, double>>();
      return true;
    case Dtype::i32:
    case Dtype::u32:
      if (!native) return false;
      f.template operator()<WrapSum<std::uint32_t>>();
      return true;
    case Dtype::i64:
      if (!native) return false;
      f.template operator()<WrapSum<std::uint64_t>>();
      return true;
    default: return false;
  }
}

// Whether (dtype, op, accum) can be scanned.
struct IgnoreScanReducer {
  template <class R>
  void operator()() const {}
};
inline bool scan_supported(Dtype t, Op op, Accum acc) { return dispatch_scan(t, op, acc, IgnoreScanReducer{}); }

}  // namespace tessera
