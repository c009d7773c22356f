// The expected answer of one spmv problem and the check of a result against
// it (used by problem.cpp and the tests, which feed it wrong answers).
//
// Tolerance. Row r is a dot product of its k_r nonzeros with x, rounded in
// the value type T (unit roundoff u: 2^-24 float, 2^-53 double) in whatever
// order a rung adds (serial, lane-strided trees, tile partials, atomics):
// the error of any such sum is bounded by gamma_{k_r} * sum_k |a_rk| |x_k|,
// gamma_n = n u / (1 - n u) (Higham, Accuracy and Stability, 3.1). Scaling
// by alpha, adding beta * y0 and the final rounding add three roundings,
// and the reference's own rounding one more, so
//
//   |y_r - ref_r| <= gamma_{k_r + 4} * (|alpha| sum_k |a_rk| |x_k| + |beta| |y0_r|)
//
// with ref_r accumulated in long double (its own error, ~k 2^-64, is
// negligible). Written !(err <= tol): NaN fails, and so does a row left as
// the NaN poison. The reported max_rel_err is max err / scale.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "harness/check.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::check {

template <class T>
constexpr double unit_roundoff() {
  return sizeof(T) == 4 ? 0x1.0p-24 : 0x1.0p-53;
}

template <class T>
double gamma_of(std::int64_t n) {
  const double nu = double(n) * unit_roundoff<T>();
  return nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
}

template <class T>
class Expected {
 public:
  // y0: the initial y (read only when beta != 0).
  Expected(const Csr<T>& a, const T* x, const T* y0, double alpha, double beta) {
    ref_.resize(std::size_t(a.rows));
    tol_.resize(std::size_t(a.rows));
    scale_.resize(std::size_t(a.rows));
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t r = 0; r < a.rows; ++r) {
      long double sum = 0;
      double abs = 0;
      for (std::int64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
        const long double p = static_cast<long double>(a.values[k]) * static_cast<long double>(x[a.col_indices[k]]);
        sum += p;
        abs += std::fabs(double(p));
      }
      long double ref = static_cast<long double>(alpha) * sum;
      double scale = std::fabs(alpha) * abs;
      if (beta != 0) {
        ref += static_cast<long double>(beta) * static_cast<long double>(y0[r]);
        scale += std::fabs(beta * double(y0[r]));
      }
      const auto i = std::size_t(r);
      ref_[i] = ref;
      scale_[i] = scale;
      tol_[i] = gamma_of<T>(a.row_offsets[r + 1] - a.row_offsets[r] + 4) * scale;
    }
  }

  std::int64_t rows() const { return std::int64_t(ref_.size()); }

  harness::CheckResult compare(const T* got) const {
    harness::CheckResult out;
    out.ok = true;
    std::int64_t failures = 0, first = -1;
    double max_rel = 0;
    for (std::size_t r = 0; r < ref_.size(); ++r) {
      const double err = double(std::fabs(static_cast<long double>(got[r]) - ref_[r]));
      if (!(err <= tol_[r])) {
        if (failures++ == 0) first = std::int64_t(r);
        max_rel = std::numeric_limits<double>::infinity();
        continue;
      }
      if (scale_[r] > 0) max_rel = std::max(max_rel, err / scale_[r]);
    }
    out.max_rel_err = max_rel;
    if (failures > 0) {
      const auto r = std::size_t(first);
      out.ok = false;
      out.detail = fmt::format("{} of {} rows outside the bound; first y[{}] = {} expected {} (bound {:.3g})",
                               failures, ref_.size(), first, double(got[r]), double(ref_[r]), tol_[r]);
    }
    return out;
  }

 private:
  std::vector<long double> ref_;
  std::vector<double> tol_, scale_;
};

}  // namespace tessera::spmv_impl::check
