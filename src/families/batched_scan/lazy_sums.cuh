// Double-float and Kahan sums without the renormalisation step
// (fused_pipelined_lazy_bulk, fused_fitted, short_rows, the resident rows).
// The same states as DFloatSum and KahanSum (tessera/blocks/reducers.hpp), so
// carries and outputs are interchangeable with theirs:
// - double-float add: two_sum(hi, x) -> (s, e), then hi = s, lo += e (7
//   additions instead of 10: no fast_two_sum); combine: the two-sum of the
//   leading parts, lo = e + (a.lo + b.lo) (8 instead of 11);
// - Kahan combine: the two-sum of the leading parts with its error folded
//   into the compensation, not re-split (8 instead of 11); Kahan's add is
//   its usual 4.
// Why the sum survives: every two_sum is exact, so hi + lo (s - c) differs
// from the true sum only by the roundings of lo, and lo only gathers
// two-sum errors (each <= ulp(hi) / 2) along one path of the scan tree
// (<= ~40 combines in a 10,752-sample tile: a chain, the chains, the block
// scans), so |lo| stays below ~2^-18 |hi| and each of its roundings costs at
// most ~2^-42 relative: ~40 x 2^-42 < 2^-36, inside docs/batched_scan.md's
// bound (u_acc = 2^-44 times c(L) = 16 + 4 sqrt(L) >= 2^-40 ... 2^-35).
// Cancellation (hi near 0 with lo not) is as exact as with the
// renormalising forms. finish rounds hi + lo once. Adding the identity
// leaves a state exactly as it is (two_sum(hi, 0) = (hi, 0)), which the
// masked padding of scan_chains.cuh relies on.
#pragma once

#include "tessera/blocks/reducers.hpp"

namespace tessera::batched_scan_impl::gpu_detail {

struct LazyDFloatSum : DFloatSum {
  static __device__ __forceinline__ void add(acc_t& a, float x) {
    float s, e;
    detail::two_sum(a.hi, x, s, e);
    a.hi = s;
    a.lo += e;
  }
  static __device__ __forceinline__ acc_t combine(acc_t a, acc_t b) {
    float s, e;
    detail::two_sum(a.hi, b.hi, s, e);
    return {s, e + (a.lo + b.lo)};
  }
};

struct LazyKahanSum : KahanSum {
  // (s1 - c1) + (s2 - c2) = s - ((c1 + c2) - e) with s + e = s1 + s2 exactly.
  static __device__ __forceinline__ acc_t combine(acc_t a, acc_t b) {
    float s, e;
    detail::two_sum(a.s, b.s, s, e);
    return {s, (a.c + b.c) - e};
  }
};

// The lazy form of a reducer; float and double sums have nothing to drop.
template <class R>
struct LazyOf {
  using type = R;
};
template <>
struct LazyOf<DFloatSum> {
  using type = LazyDFloatSum;
};
template <>
struct LazyOf<KahanSum> {
  using type = LazyKahanSum;
};

}  // namespace tessera::batched_scan_impl::gpu_detail
