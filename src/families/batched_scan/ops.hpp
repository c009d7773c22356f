// Accumulator operations the batched scans need beyond the reducers of
// tessera/blocks/reducers.hpp (host + device, so CPU tests exercise the
// kernels' arithmetic):
//
//   scale(acc, n)   n * acc for a small integer n (0 <= n <= 2^24, exact in
//                   float): the sum of n copies of one prefix, used where a
//                   tile's forward values all share the same carry (the
//                   long-row forward-then-backward path).
//
// The reducers used for scans are those of dispatch_reducer(Dtype::f32,
// Op::sum, accum): PlainSum<float, float> (native), PlainSum<float, double>,
// KahanSum and DFloatSum; their combine() is commutative (two-sum is exact in
// either order), so only the association of a scan's partial sums varies
// between variants, never the result of a single combine.
// No fast-math: the error-free transformations need IEEE rounding.
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/blocks/hd.hpp"
#include "tessera/blocks/reducers.hpp"

namespace tessera::scan_ops {

TESSERA_HD float scale(float a, std::uint32_t n) { return a * static_cast<float>(n); }
TESSERA_HD double scale(double a, std::uint32_t n) { return a * static_cast<double>(n); }

// Double-float times an exact float n: the high product with its exact error
// (one FMA), plus lo * n, renormalised. Relative error ~2^-44, like an add.
TESSERA_HD DFloatState scale(DFloatState a, std::uint32_t n) {
  const float f = static_cast<float>(n);
  const float p = a.hi * f;
  float e = fmaf(a.hi, f, -p);  // exact: hi * f - p
  e = fmaf(a.lo, f, e);
  DFloatState r;
  detail::fast_two_sum(p, e, r.hi, r.lo);
  return r;
}

// Kahan state (value s - c) scaled as the double-float (s, -c).
TESSERA_HD KahanState scale(KahanState a, std::uint32_t n) {
  const DFloatState d = scale(DFloatState{a.s, -a.c}, n);
  return {d.hi, -d.lo};
}

// The value of a state, in double (tests and diagnostics).
TESSERA_HD double value_of(float a) { return a; }
TESSERA_HD double value_of(double a) { return a; }
TESSERA_HD double value_of(DFloatState a) { return static_cast<double>(a.hi) + static_cast<double>(a.lo); }
TESSERA_HD double value_of(KahanState a) { return static_cast<double>(a.s) - static_cast<double>(a.c); }

}  // namespace tessera::scan_ops
