// The exact-as-needed scan of one row behind the step-0 reference and the
// harness's expected answers: long double (64-bit mantissa) with Neumaier
// compensation in both passes, the forward result of forward_backward kept in
// long double. Its own error (~2^-64 relative to the scan of |x|, times a
// small factor) is negligible next to the 2^-24 rounding of a float output,
// so errors measured against it are the variants' own.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "tessera/batched_scan.hpp"

namespace tessera::batched_scan_impl::cpu {

// Neumaier's compensated running sum: the error term is kept whichever of the
// running sum and the new term is larger.
struct CompensatedSum {
  long double s = 0.0L, c = 0.0L;
  void add(long double v) {
    const long double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
  }
  long double value() const { return s + c; }
};

// y[i] for i < len, as Out (float for the variant, double for the harness).
// `x` and `y` may be the same row (in place). `scratch` holds the forward
// result of forward_backward (resized as needed).
template <class Out>
void reference_row(const float* x, Out* y, std::size_t len, ScanDirection dir, bool exclusive,
                   std::vector<long double>& scratch) {
  if (len == 0) return;
  switch (dir) {
    case ScanDirection::forward: {
      CompensatedSum acc;
      for (std::size_t i = 0; i < len; ++i) {
        const long double before = acc.value();
        acc.add(x[i]);
        y[i] = static_cast<Out>(exclusive ? before : acc.value());
      }
      return;
    }
    case ScanDirection::backward: {
      CompensatedSum acc;
      for (std::size_t i = len; i-- > 0;) {
        const long double before = acc.value();
        acc.add(x[i]);
        y[i] = static_cast<Out>(exclusive ? before : acc.value());
      }
      return;
    }
    case ScanDirection::forward_backward: {
      scratch.resize(len);
      CompensatedSum fwd;
      for (std::size_t i = 0; i < len; ++i) {
        const long double before = fwd.value();
        fwd.add(x[i]);
        scratch[i] = exclusive ? before : fwd.value();
      }
      CompensatedSum bwd;
      for (std::size_t i = len; i-- > 0;) {
        const long double before = bwd.value();
        bwd.add(scratch[i]);
        y[i] = static_cast<Out>(exclusive ? before : bwd.value());
      }
      return;
    }
  }
}

}  // namespace tessera::batched_scan_impl::cpu
