// Helpers of the convolution tests: seeded signals and masks, an independent
// reference (long double, written here from the definition rather than taken
// from the library) with each output's sum of |tap x input|, and the
// tolerance the harness uses.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace conv_test {

inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen) + 0.125f;  // never all zero, not centred
  return v;
}

inline std::vector<float> outer(const std::vector<float>& col, const std::vector<float>& row) {
  std::vector<float> m(col.size() * row.size());
  for (std::size_t y = 0; y < col.size(); ++y)
    for (std::size_t x = 0; x < row.size(); ++x) m[y * row.size() + x] = col[y] * row[x];
  return m;
}

struct Expected {
  std::vector<long double> value;
  std::vector<long double> magnitude;  // sum |mask x input| per output
};

// out[y][x] = sum mask[ky][kx] in[y - mh/2 + ky][x - mw/2 + kx], zero outside.
inline Expected expected(const std::vector<float>& in, std::size_t w, std::size_t h, std::size_t pitch,
                         const std::vector<float>& mask, std::size_t mw, std::size_t mh) {
  Expected e{std::vector<long double>(w * h), std::vector<long double>(w * h)};
  const long rx = long(mw / 2), ry = long(mh / 2);
  for (long y = 0; y < long(h); ++y)
    for (long x = 0; x < long(w); ++x) {
      long double acc = 0, mag = 0;
      for (long ky = 0; ky < long(mh); ++ky)
        for (long kx = 0; kx < long(mw); ++kx) {
          const long yy = y - ry + ky, xx = x - rx + kx;
          if (yy < 0 || yy >= long(h) || xx < 0 || xx >= long(w)) continue;
          const long double p = (long double)mask[std::size_t(ky) * mw + std::size_t(kx)] *
                                (long double)in[std::size_t(yy) * pitch + std::size_t(xx)];
          acc += p;
          mag += std::fabs(p);
        }
      e.value[std::size_t(y) * w + std::size_t(x)] = acc;
      e.magnitude[std::size_t(y) * w + std::size_t(x)] = mag;
    }
  return e;
}

// The harness's tolerance (problem.cpp), times `extra` for the FFT rungs,
// plus `floor` (the fused rung's normwise rounding, fft_geometry.hpp).
inline void expect_close(const std::vector<float>& out, std::size_t w, std::size_t h, std::size_t pitch,
                         const Expected& e, std::size_t taps, const std::string& what, double extra = 1.0,
                         double floor = 0.0) {
  const double tol_factor = std::ldexp(1.0, -24) * (16.0 + 4.0 * std::sqrt(double(taps))) * extra;
  int reported = 0;
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const double got = out[y * pitch + x], ref = double(e.value[y * w + x]);
      const double tol = tol_factor * double(e.magnitude[y * w + x]) + floor + 1e-30;
      if (!(std::fabs(got - ref) <= tol) && reported++ < 3)
        ADD_FAILURE() << what << ": out[" << y << "][" << x << "] = " << got << ", expected " << ref << " (tolerance "
                      << tol << ")";
    }
}

}  // namespace conv_test
