// Helpers shared by the GEMM tests: seeded row-major matrices with marked
// padding, an independent reference (long double, written here rather than
// taken from the library) and the element-wise check.
//
// Tolerance (docs/gemm.md): each element of C is within
//   gamma_{k+2} * (|alpha| sum_k |a_ik| |b_kj| + |beta| |c0_ij|),
//   gamma_n = n u / (1 - n u), u = 2^-24,
// whatever the summation order: the worst-case bound of a k-term float dot
// product plus the scaling and the final rounding. Written !(err <= tol), so
// a NaN fails; the padding columns of C must keep their poison bits.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gemm_test {

// Padding of inputs: a huge value that wrecks any product that reads it.
inline constexpr float INPUT_PAD = 1.0e30f;
// Poison bytes of C (0xFFFFFFFF: a NaN no arithmetic produces).
inline constexpr int POISON = 0xFF;

struct Mat {
  std::size_t rows = 0, cols = 0, ld = 1;
  std::vector<float> v;  // max(1, rows * ld)
  float at(std::size_t i, std::size_t j) const { return v[i * ld + j]; }
};

inline std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform values in [-1, 1) (never all zero), padding INPUT_PAD.
inline Mat random_mat(std::size_t rows, std::size_t cols, std::size_t pad, std::uint64_t seed) {
  Mat m{rows, cols, std::max<std::size_t>(1, cols + pad), {}};
  m.v.assign(std::max<std::size_t>(1, rows * m.ld), INPUT_PAD);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      m.v[i * m.ld + j] = float(double(splitmix(seed) >> 40) * 0x1.0p-23 - 1.0);
  return m;
}

// C's initial contents: random values (beta != 0) or poison (beta == 0);
// padding always poison.
inline Mat initial_c(std::size_t rows, std::size_t cols, std::size_t pad, float beta, std::uint64_t seed) {
  Mat c = random_mat(rows, cols, pad, seed);
  for (std::size_t i = 0; i < rows; ++i)
    std::memset(c.v.data() + i * c.ld + (beta == 0 ? 0 : cols), POISON,
                (beta == 0 ? c.ld : c.ld - cols) * sizeof(float));
  if (rows == 0) std::memset(c.v.data(), POISON, c.v.size() * sizeof(float));
  return c;
}

struct Reference {
  std::vector<long double> ref, scale;  // rows * cols of C
};

// C = alpha * A * op(B) + beta * C0 with op(B) = B (aat == false) or A^T.
inline Reference reference(const Mat& a, const Mat* b, bool aat, float alpha, float beta, const Mat& c0) {
  const std::size_t m = a.rows, k = a.cols, n = aat ? a.rows : b->cols;
  Reference r{std::vector<long double>(m * n), std::vector<long double>(m * n)};
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      long double dot = 0, mag = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const long double x = (long double)a.at(i, p) * (aat ? a.at(j, p) : b->at(p, j));
        dot += x;
        mag += std::fabs(x);
      }
      long double v = (long double)alpha * dot, s = std::fabs((long double)alpha) * mag;
      if (beta != 0) {
        v += (long double)beta * c0.at(i, j);
        s += std::fabs((long double)beta * c0.at(i, j));
      }
      r.ref[i * n + j] = v;
      r.scale[i * n + j] = s;
    }
  return r;
}

inline long double gamma_k(std::size_t n) {
  const long double nu = (long double)n * 0x1.0p-24L;
  return nu / (1 - nu);
}

// Every element of `got` (C's storage as the variant left it) within the
// tolerance; only j <= i when `lower_only`; the padding bytes untouched.
inline ::testing::AssertionResult matches(const std::vector<float>& got, const Mat& c0, const Reference& r,
                                          std::size_t k, bool lower_only = false) {
  const long double gamma = gamma_k(k + 2);
  const std::size_t m = c0.rows, n = c0.cols;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (lower_only && j > i) continue;
      const float g = got[i * c0.ld + j];
      const long double err = std::fabs((long double)g - r.ref[i * n + j]);
      const long double tol = gamma * r.scale[i * n + j];
      if (!(err <= tol))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << g << ", expected "
                                             << double(r.ref[i * n + j]) << " (tolerance " << double(tol) << ")";
    }
    for (std::size_t j = n; j < c0.ld; ++j) {
      std::uint32_t bits;
      std::memcpy(&bits, &got[i * c0.ld + j], 4);
      if (bits != 0xFFFFFFFFu)
        return ::testing::AssertionFailure() << "padding C[" << i << "][" << j << "] was written";
    }
  }
  return ::testing::AssertionSuccess();
}

// One shape of the tests.
struct Shape {
  bool aat;
  std::size_t m, n, k;  // aat: n == m
  std::size_t pad_a = 0, pad_b = 0, pad_c = 0;
  float alpha = 1, beta = 0;
};

inline std::string shape_name(const Shape& s) {
  std::string r = (s.aat ? "aat_" : "ab_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                  std::to_string(s.k);
  if (s.pad_a || s.pad_b || s.pad_c)
    r += "_pad" + std::to_string(s.pad_a) + std::to_string(s.pad_b) + std::to_string(s.pad_c);
  if (s.beta != 0) r += "_beta";
  return r;
}

}  // namespace gemm_test
