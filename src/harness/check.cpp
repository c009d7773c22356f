#include "harness/check.hpp"

#include <fmt/format.h>

#include <cmath>

namespace tessera::harness {

double accumulator_epsilon(Dtype type, Accum accum) {
  switch (accum) {
    case Accum::native: return type == Dtype::f32 ? 0x1.0p-24 : 0x1.0p-53;
    case Accum::f64: return 0x1.0p-53;
    case Accum::kahan:
    case Accum::dfloat: return 0x1.0p-44;
  }
  return 0x1.0p-24;
}

double sum_tolerance(Dtype type, Accum accum, std::size_t n, double abs_sum) {
  const double eps_out = type == Dtype::f32 ? 0x1.0p-24 : 0x1.0p-53;
  const double eps_acc = accumulator_epsilon(type, accum);
  return (eps_out + eps_acc * (16.0 + 4.0 * std::sqrt(static_cast<double>(n)))) * abs_sum;
}

CheckResult check_scalar(double got, double ref, bool exact, double tol) {
  CheckResult r;
  const double err = std::fabs(got - ref);
  r.max_rel_err = ref != 0 ? err / std::fabs(ref) : err;
  if (exact) {
    r.ok = got == ref || (std::isnan(got) && std::isnan(ref));
    if (r.ok) r.max_rel_err = 0;
  } else {
    r.ok = err <= tol;  // false for NaN
  }
  if (!r.ok) r.detail = fmt::format("got {:.17g}, expected {:.17g} (|diff| {:.3g}, tolerance {:.3g})", got, ref, err, tol);
  return r;
}

CheckResult check_exact_int(long long got, long long ref) {
  CheckResult r;
  r.ok = got == ref;
  if (!r.ok) {
    r.max_rel_err = ref != 0 ? std::fabs(static_cast<double>(got) - static_cast<double>(ref)) / std::fabs(double(ref)) : 1.0;
    r.detail = fmt::format("got {}, expected {}", got, ref);
  }
  return r;
}

}  // namespace tessera::harness
