// Shared by the spmv tests: the matrix shapes every rung is checked on
// (empty rows, one huge row, 1x1, no nonzeros, rectangular both ways, a
// stencil, a power-law matrix), an independent naive product, and the
// per-row bound of problem_check.hpp.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "families/spmv/matrices.hpp"
#include "harness/generate.hpp"
#include "tessera/spmv.hpp"

namespace tessera_test::spmv {

namespace m = tessera::spmv_impl::matrices;

struct Shape {
  std::string name;
  m::RandomShape random;  // used unless stencil_side > 0
  std::int64_t stencil_side = 0;
  bool power_law = false;
};

inline std::vector<Shape> shapes() {
  return {
      {"one_by_one", {1, 1, 3.0, 0.0, 0}},
      {"zero_rows", {0, 5, 3.0, 0.0, 0}},
      {"no_nonzeros", {40, 30, 0.0, 0.0, 0}},
      {"empty_rows", {500, 500, 4.0, 0.5, 0}},
      {"huge_row", {300, 9000, 2.0, 0.2, 8000}},
      {"wide", {17, 4000, 40.0, 0.1, 0}},
      {"tall", {3000, 23, 5.0, 0.1, 0}},
      {"laplace", {}, 19},
      {"power_law", {20000, 20000, 0, 0, 0}, 0, true},
  };
}

template <class T>
m::HostMatrix<T> build(const Shape& s, std::uint64_t seed) {
  if (s.stencil_side > 0) return m::laplace_2d<T>(s.stencil_side, seed);
  if (s.power_law) return m::power_law<T>(s.random.rows, s.random.cols, 12.0, 5000, seed);
  return m::random_csr<T>(s.random, seed);
}

// A few rows of 1e5 entries among short ones: rows 5, 1400 and 2999 (the
// last) of 3000 hold 100000 + r distinct columns, the others 0-39 random
// ones (the stall csr_scalar and a sub-warp a row suffer on the power law).
inline constexpr std::int64_t LONG_ROWS_MATRIX_ROWS = 3000;
inline bool is_long_row(std::int64_t r) { return r == 5 || r == 1400 || r == LONG_ROWS_MATRIX_ROWS - 1; }
template <class T>
m::HostMatrix<T> long_rows_matrix(std::uint64_t seed) {
  m::HostMatrix<T> a;
  a.rows = LONG_ROWS_MATRIX_ROWS;
  a.cols = 131072;
  a.offsets.assign(1, 0);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const std::uint64_t h = tessera::harness::mix64(seed, std::uint64_t(r));
    const std::int64_t len = is_long_row(r) ? 100000 + r : std::int64_t(h % 40);
    for (std::int64_t k = 0; k < len; ++k) {
      const std::uint64_t w = tessera::harness::mix64(h, std::uint64_t(k));
      a.col.push_back(std::int32_t(is_long_row(r) ? (k * 1 + r) % a.cols : std::int64_t(w % std::uint64_t(a.cols))));
      a.val.push_back(T(m::unit(w)));
    }
    a.offsets.push_back(std::int64_t(a.col.size()));
  }
  return a;
}

template <class T>
std::vector<T> random_vector(std::int64_t n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = T(m::unit(tessera::harness::mix64(seed, i)));
  return v;
}

// y = alpha A x + beta y, each row's sum in double in CSR order, rounded once
// (the formats' host products add in the same order: equal bits).
template <class T>
std::vector<T> naive(const tessera::Csr<T>& a, const std::vector<T>& x, std::vector<T> y, double alpha, double beta) {
  for (std::int64_t r = 0; r < a.rows; ++r) {
    double sum = 0;
    for (std::int64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k)
      sum += double(a.values[k]) * double(x[std::size_t(a.col_indices[k])]);
    y[std::size_t(r)] = beta == 0 ? T(alpha * sum) : T(alpha * sum + beta * double(y[std::size_t(r)]));
  }
  return y;
}

// Every row within (k + 4) u (|alpha| sum |a||x| + |beta| |y0|) of the naive
// result (which is itself within u of exact).
template <class T>
void expect_close(const tessera::Csr<T>& a, const std::vector<T>& x, const std::vector<T>& y0, double alpha,
                  double beta, const std::vector<T>& got, const std::string& what) {
  const double u = sizeof(T) == 4 ? 0x1.0p-24 : 0x1.0p-53;
  const std::vector<T> want = naive(a, x, y0, alpha, beta);
  int reported = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    double scale = beta != 0 ? std::fabs(beta * double(y0[std::size_t(r)])) : 0.0;
    for (std::int64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k)
      scale += std::fabs(alpha * double(a.values[k]) * double(x[std::size_t(a.col_indices[k])]));
    const double tol = double(a.row_offsets[r + 1] - a.row_offsets[r] + 5) * u * scale;
    const double err = std::fabs(double(got[std::size_t(r)]) - double(want[std::size_t(r)]));
    if (!(err <= tol) && reported++ < 3)
      ADD_FAILURE() << what << ": y[" << r << "] = " << got[std::size_t(r)] << ", expected " << want[std::size_t(r)]
                    << " (bound " << tol << ")";
  }
}

}  // namespace tessera_test::spmv
