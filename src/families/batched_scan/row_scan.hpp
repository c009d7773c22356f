// One row scanned serially with a Reducer's accumulator
// (tessera/blocks/reducers.hpp): the arithmetic of the OpenMP rung, and the
// semantics every rung matches.
//   forward          y[i] = finish(x[0] (+) ... (+) x[i])
//   backward         y[i] = finish(x[i] (+) ... (+) x[len-1])
//   forward_backward f[i] as forward but kept as the accumulator state, then
//                    y[i] = finish(f[i] (+) ... (+) f[len-1])
// Exclusive: the state before the element is added (identity first), in both
// passes. Each output is rounded to float once (finish).
#pragma once

#include <cstddef>
#include <vector>

#include "tessera/batched_scan.hpp"

namespace tessera::batched_scan_impl::cpu {

// `x` and `y` may be the same row (each element is read before it is
// written). `f` holds len states for forward_backward.
template <class R>
void scan_row(const float* x, float* y, std::size_t len, ScanDirection dir, bool exclusive,
              std::vector<typename R::acc_t>& f) {
  using acc_t = typename R::acc_t;
  if (len == 0) return;
  if (dir == ScanDirection::backward) {
    acc_t run = R::identity();
    for (std::size_t i = len; i-- > 0;) {
      const acc_t before = run;
      R::add(run, x[i]);
      y[i] = R::finish(exclusive ? before : run);
    }
    return;
  }
  acc_t run = R::identity();
  if (dir == ScanDirection::forward) {
    for (std::size_t i = 0; i < len; ++i) {
      const acc_t before = run;
      R::add(run, x[i]);
      y[i] = R::finish(exclusive ? before : run);
    }
    return;
  }
  f.resize(len);
  for (std::size_t i = 0; i < len; ++i) {
    const acc_t before = run;
    R::add(run, x[i]);
    f[i] = exclusive ? before : run;
  }
  run = R::identity();
  for (std::size_t i = len; i-- > 0;) {
    const acc_t before = run;
    run = R::combine(f[i], run);
    y[i] = R::finish(exclusive ? before : run);
  }
}

}  // namespace tessera::batched_scan_impl::cpu
