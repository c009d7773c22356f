#include "harness/check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

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

double ulps_from_rounded(float got, double exact) {
  const float rounded = static_cast<float>(exact);  // the exact result rounded once (to nearest)
  const float a = std::fabs(rounded);
  if (!std::isfinite(a) || std::isnan(got))
    return got == rounded ? 0.0 : std::numeric_limits<double>::infinity();
  // The float spacing at |rounded|: above it (below it at FLT_MAX, where
  // above is infinity); the smallest subnormal at 0.
  const float up = std::nextafter(a, std::numeric_limits<float>::infinity());
  const double ulp = std::isfinite(up) ? double(up) - double(a) : double(a) - double(std::nextafter(a, 0.0f));
  return std::fabs(double(got) - double(rounded)) / ulp;
}

}  // namespace tessera::harness
