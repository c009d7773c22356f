// Generated CSR matrices for the spmv bench, verify and tests: seeded, so
// every run and every machine builds the same matrix, and checkable on the
// CPU. Values are uniform in [-1, 1) (never all zero) on every pattern, so a
// kernel that mixes up entries of a row fails the check even on a stencil.
//
//   laplace_2d(n)      the 5-point Laplacian's pattern on an n x n grid
//   stencil_27(n)      the 27-point stencil's pattern on an n^3 grid
//   power_law(rows)    Chung-Lu-like: row lengths ~ (i+1)^-a (a solved so
//                      the mean is MEAN), capped at max_length, rows shuffled;
//                      columns drawn with a milder skew, (c+1)^-0.5 (popular columns),
//                      so x is read unevenly as in a real graph; the shortest
//                      rows keep a few entries, four pass 1e5 at the bench size
//   random_csr(...)    test shapes: uniform lengths in [0, 2 mean], a fraction
//                      of empty rows, optionally one huge row; columns in any
//                      order, duplicates allowed (CSR does not require either)
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "harness/generate.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::matrices {

template <class T>
struct HostMatrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> col;
  std::vector<T> val;
  std::int64_t nnz() const { return std::int64_t(col.size()); }
  Csr<T> view() const { return {rows, cols, nnz(), offsets.data(), col.data(), val.data()}; }
};

// Uniform in [-1, 1) from one random word.
inline double unit(std::uint64_t w) { return double(w >> 11) * 0x1.0p-53 * 2.0 - 1.0; }

// Offsets from row lengths (parallel fill needs them first).
template <class T>
void allocate(HostMatrix<T>& m, const std::vector<std::int64_t>& lengths) {
  m.offsets.assign(lengths.size() + 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) m.offsets[r + 1] = m.offsets[r] + lengths[r];
  m.col.resize(std::size_t(m.offsets.back()));
  m.val.resize(std::size_t(m.offsets.back()));
}

template <class T>
void fill_values(HostMatrix<T>& m, std::uint64_t seed) {
  const auto n = std::int64_t(m.val.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) m.val[std::size_t(k)] = T(unit(harness::mix64(seed, std::uint64_t(k))));
}

// A stencil on a grid of `dims` (2 or 3) dimensions of side n: neighbours at
// offsets in [-reach, reach] per axis, kept when inside the grid; `star`:
// only offsets along one axis (the 5-point Laplacian), else the full box.
template <class T>
HostMatrix<T> stencil(std::int64_t n, int dims, bool star, std::uint64_t seed) {
  HostMatrix<T> m;
  const std::int64_t rows = dims == 2 ? n * n : n * n * n;
  m.rows = m.cols = rows;
  std::vector<std::int64_t> offs;  // linear offsets in increasing order, with their axis displacements
  std::vector<std::array<int, 3>> disp;
  for (int dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonzero_axes = (dx != 0) + (dy != 0) + (dz != 0);
        if (star && nonzero_axes > 1) continue;
        disp.push_back({dx, dy, dz});
      }
  auto inside = [&](std::int64_t r, const std::array<int, 3>& d) {
    const std::int64_t x = r % n, y = (r / n) % n, z = r / (n * n);
    return x + d[0] >= 0 && x + d[0] < n && y + d[1] >= 0 && y + d[1] < n && z + d[2] >= 0 && z + d[2] < n;
  };
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(rows));
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t len = 0;
    for (const auto& d : disp) len += inside(r, d);
    lengths[std::size_t(r)] = len;
  }
  allocate(m, lengths);
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t k = m.offsets[std::size_t(r)];
    for (const auto& d : disp)  // disp is in increasing linear offset order: sorted columns
      if (inside(r, d)) m.col[std::size_t(k++)] = std::int32_t(r + d[0] + d[1] * n + d[2] * n * n);
  }
  fill_values(m, seed);
  return m;
}

template <class T>
HostMatrix<T> laplace_2d(std::int64_t n, std::uint64_t seed) {
  return stencil<T>(n, 2, true, seed);
}
template <class T>
HostMatrix<T> stencil_27(std::int64_t n, std::uint64_t seed) {
  return stencil<T>(n, 3, false, seed);
}

// Lengths (i+1)^-a * max_length (floored; some rows end up empty), with a
// found by bisection so that the mean is `mean`.
inline std::vector<std::int64_t> power_law_lengths(std::int64_t rows, double mean, std::int64_t max_length) {
  auto length = [&](double a, std::int64_t i) {
    return std::int64_t(std::floor(double(max_length) * std::pow(double(i + 1), -a)));
  };
  auto mean_of = [&](double a) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (std::int64_t i = 0; i < rows; ++i) s += double(length(a, i));
    return s / double(std::max<std::int64_t>(rows, 1));
  };
  double lo = 0.05, hi = 4.0;  // the mean falls as a grows
  for (int it = 0; it < 40; ++it) {
    const double mid = 0.5 * (lo + hi);
    (mean_of(mid) > mean ? lo : hi) = mid;
  }
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) lengths[std::size_t(i)] = length(hi, i);
  return lengths;
}

// A seeded Fisher-Yates shuffle.
template <class V>
void shuffle(std::vector<V>& v, std::uint64_t seed) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[harness::mix64(seed, i) % i]);
}

template <class T>
HostMatrix<T> power_law(std::int64_t rows, std::int64_t cols, double mean, std::int64_t max_length,
                        std::uint64_t seed) {
  HostMatrix<T> m;
  m.rows = rows;
  m.cols = cols;
  std::vector<std::int64_t> lengths = power_law_lengths(rows, mean, std::min(max_length, cols));
  shuffle(lengths, seed ^ 0x5151);
  allocate(m, lengths);
  // Column popularity: the same law over a shuffled column order; drawn by
  // binary search in its cumulative weights.
  std::vector<double> cdf(static_cast<std::size_t>(cols));
  double total = 0;
  for (std::int64_t c = 0; c < cols; ++c) cdf[std::size_t(c)] = total += std::pow(double(c + 1), -0.5);
  std::vector<std::int32_t> column_of(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) column_of[std::size_t(c)] = std::int32_t(c);
  shuffle(column_of, seed ^ 0xC01);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t b = m.offsets[std::size_t(r)], e = m.offsets[std::size_t(r) + 1];
    for (std::int64_t k = b; k < e; ++k) {
      const double u = (unit(harness::mix64(seed ^ 0xA11CE, std::uint64_t(k))) + 1.0) * 0.5 * total;
      const auto at = std::size_t(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
      m.col[std::size_t(k)] = column_of[std::min(at, std::size_t(cols - 1))];
    }
    std::sort(m.col.begin() + b, m.col.begin() + e);
  }
  fill_values(m, seed);
  return m;
}

struct RandomShape {
  std::int64_t rows, cols;
  double mean_length;             // uniform lengths in [0, 2 mean]
  double empty_fraction = 0.1;    // rows forced empty
  std::int64_t huge_row = 0;      // > 0: one row (the middle one) this long
};

template <class T>
HostMatrix<T> random_csr(const RandomShape& s, std::uint64_t seed) {
  HostMatrix<T> m;
  m.rows = s.rows;
  m.cols = s.cols;
  std::vector<std::int64_t> lengths(std::size_t(s.rows), 0);
  if (s.cols > 0)
    for (std::int64_t r = 0; r < s.rows; ++r) {
      const std::uint64_t w = harness::mix64(seed ^ 0x1E6, std::uint64_t(r));
      const bool empty = double(w % 1000) < s.empty_fraction * 1000.0;
      const auto span = std::uint64_t(2 * s.mean_length) + 1;
      lengths[std::size_t(r)] = empty ? 0 : std::int64_t((w >> 20) % span);
    }
  if (s.huge_row > 0 && s.rows > 0 && s.cols > 0) lengths[std::size_t(s.rows / 2)] = s.huge_row;
  allocate(m, lengths);
  for (std::int64_t k = 0; k < m.nnz(); ++k)
    m.col[std::size_t(k)] = std::int32_t(harness::mix64(seed ^ 0xC0C0, std::uint64_t(k)) % std::uint64_t(s.cols));
  fill_values(m, seed);
  return m;
}

}  // namespace tessera::spmv_impl::matrices
