// What the stencil7 tests share: seeded random grids, the sweeps written out
// independently of the library (a plain triple loop in long double, the
// neighbours added in another order), and the comparison: boundary cells bit
// for bit equal to the input, interior cells within a tolerance that grows
// with the sweeps.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace stencil7_test {

struct Grid {
  std::size_t nx, ny, nz;
  std::size_t cells() const { return nx * ny * nz; }
  std::size_t at(std::size_t x, std::size_t y, std::size_t z) const { return (z * ny + y) * nx + x; }
  bool boundary(std::size_t x, std::size_t y, std::size_t z) const {
    return x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
  }
};

// Coefficients with 6|c1| + |c0| = 1: values stay within the input's range.
inline constexpr double C0 = -0.25, C1 = 0.125;

template <class T>
std::vector<T> random_grid(const Grid& g, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(g.cells());
  for (auto& x : v) x = T(u(rng) + 0.25);
  return v;
}

// `sweeps` sweeps of the definition, in long double.
template <class T>
std::vector<long double> expected(const std::vector<T>& in, const Grid& g, int sweeps, double c0, double c1) {
  std::vector<long double> a(in.begin(), in.end()), b(a.size());
  for (int s = 0; s < sweeps; ++s) {
    for (std::size_t z = 0; z < g.nz; ++z)
      for (std::size_t y = 0; y < g.ny; ++y)
        for (std::size_t x = 0; x < g.nx; ++x) {
          const std::size_t i = g.at(x, y, z);
          if (g.boundary(x, y, z)) {
            b[i] = a[i];
            continue;
          }
          const long double sum = a[g.at(x, y, z - 1)] + a[g.at(x, y, z + 1)] + a[g.at(x, y - 1, z)] +
                                  a[g.at(x, y + 1, z)] + a[g.at(x - 1, y, z)] + a[g.at(x + 1, y, z)];
          b[i] = (long double)c1 * sum - (long double)c0 * a[i];
        }
    a.swap(b);
  }
  return a;
}

// Every cell of `got` against `want`; boundary cells against `in`, bitwise.
template <class T>
void expect_matches(const std::vector<T>& got, const std::vector<long double>& want, const std::vector<T>& in,
                    const Grid& g, int sweeps, const std::string& what) {
  const double eps = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
  double scale = 0;
  for (T v : in) scale = std::fmax(scale, std::fabs(double(v)));
  const double tol = eps * (8.0 + 8.0 * sweeps) * scale;
  int failures = 0;
  for (std::size_t z = 0; z < g.nz; ++z)
    for (std::size_t y = 0; y < g.ny; ++y)
      for (std::size_t x = 0; x < g.nx && failures < 5; ++x) {
        const std::size_t i = g.at(x, y, z);
        if (g.boundary(x, y, z)) {
          if (std::memcmp(&got[i], &in[i], sizeof(T)) != 0) {
            ADD_FAILURE() << what << ": boundary cell (" << x << ", " << y << ", " << z << ") is " << got[i]
                          << ", its input was " << in[i];
            ++failures;
          }
        } else if (!(std::fabs(double(got[i]) - double(want[i])) <= tol)) {
          ADD_FAILURE() << what << ": cell (" << x << ", " << y << ", " << z << ") is " << got[i] << ", expected "
                        << double(want[i]) << " (tolerance " << tol << ")";
          ++failures;
        }
      }
}

}  // namespace stencil7_test
