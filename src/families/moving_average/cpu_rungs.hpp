// The CPU rungs of the moving_average ladder (ladder.cpp lists them), and the
// double-precision window sums the harness checks every variant against.
#pragma once

#include <cstddef>
#include <cstdint>

#include "families/moving_average/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::moving_average_impl::cpu {

// Boxes at least this wide slide a running sum in the OpenMP rung and the
// double window sums (O(1) per output); narrower ones sum directly, where w
// vectorised adds cost little.
inline constexpr std::size_t SLIDE_MIN_W = 65;

// Sample g (any integer, also outside [0, n)) under the edge rule.
template <class T>
inline T sample(const T* x, std::size_t n, Edge edge, std::int64_t g) {
  if (g >= 0 && static_cast<std::size_t>(g) < n) return x[g];
  if (edge == Edge::zero) return T(0);
  return g < 0 ? x[0] : x[n - 1];
}

// Step 0: serial, obviously right: every output the sum of its w products,
// accumulated in double, rounded once to the element type.
void run_reference(const MovingAverageCall& call);

// Step 1: OpenMP over chunks of outputs, double accumulation; a box filter
// slides a running sum re-anchored at each chunk (O(n), not O(n w)).
void run_openmp(const MovingAverageCall& call);

// The window sums in double (what run_openmp computes before rounding) of
// outputs [first, first + count): out[i - first] = sum_j weights[j] *
// x[i + j - w/2]; with `absolute`, the sum of |weights[j] * x[...]| instead
// (the magnitude a float sum's error scales with). T: float or double.
template <class T>
void window_sums_f64(const T* x, const MovingAverageSpec& spec, const T* weights, bool absolute, std::size_t first,
                     std::size_t count, double* out);

// f.template operator()<T>() with T the element type (float or double).
template <class F>
void with_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); return;
    case Dtype::f64: f.template operator()<double>(); return;
    default: throw Error("moving_average: element type must be float or double");
  }
}

}  // namespace tessera::moving_average_impl::cpu
