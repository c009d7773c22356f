// Checks of results against the reference.
//
// - Integers, min/max and anything with an exact answer: equality (NaN equals
//   NaN, -0 equals +0).
// - Floating-point sums: |got - ref| <= tol * sum(|x_i|), with
//     tol = eps_out + eps_acc * (16 + 4 * sqrt(n))
//   eps_out: unit roundoff of the result type (the final rounding);
//   eps_acc: of the accumulator (float 2^-24, double 2^-53, Kahan and
//   double-float 2^-44). The sqrt(n) term covers the growth of rounding
//   error along the longest serial chain of any rung; 16 covers the tree.
//   Written as !(err <= tol) so NaN fails.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "tessera/core/types.hpp"

namespace tessera::harness {

struct CheckResult {
  bool ok = false;
  double max_rel_err = 0;  // |got - ref| / |ref| (absolute where ref == 0)
  // Root mean square of the same per-element error, for problems that report
  // error statistics over many outputs (batched_scan's precision report);
  // shown as a table column and the JSON field rms_rel_err when present.
  std::optional<double> rms_rel_err;
  // Distance of each float output from the correctly rounded reference, in
  // units in the last place of that float (0: the output is the exact result
  // rounded once): the error an accumulation adds on top of the output's
  // unavoidable rounding, which relative errors floor at 2^-24 and hide.
  // Maximum and root mean square; batched_scan reports them.
  std::optional<double> max_ulp_err, rms_ulp_err;
  std::string detail;      // on failure: what differed, and where
  // What the row should say besides its numbers, shown as the JSON field
  // note when non-empty (spmv: the format's memory footprint).
  std::string note;
};

// Unit roundoff of an accumulator for a sum over elements of `type`.
double accumulator_epsilon(Dtype type, Accum accum);

// Tolerance on |got - ref| for a sum of n elements whose absolute values add
// to abs_sum.
double sum_tolerance(Dtype type, Accum accum, std::size_t n, double abs_sum);

// |got - fl(exact)| in units in the last place of fl(exact), the exact
// value rounded once to float (CheckResult::max_ulp_err): 0 when `got` is
// the correctly rounded result; infinity when it is NaN or infinite and that
// is wrong.
double ulps_from_rounded(float got, double exact);

// Compare two scalars. `exact`: equality; otherwise within `tol`.
CheckResult check_scalar(double got, double ref, bool exact, double tol);
CheckResult check_exact_int(long long got, long long ref);

}  // namespace tessera::harness
