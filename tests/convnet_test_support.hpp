// Helpers of the convnet tests: random layers and an independent answer
// (the definition as seven plain loops in long double, written here rather
// than taken from the library) with the FP32 bound of each output:
//
//   |y - exact| <= (2^-24 + 2^-24 (16 + 4 sqrt(c k k))) * sum |w||x|
//
// over that output's own terms (docs/convnet.md). !(err <= tol): NaN fails.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/convnet.hpp"

namespace convnet_test {

// U[-1, 1) + 0.25: never all zero, both signs, sums that do not cancel to 0.
inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& e : v) e = d(gen) + 0.25f;
  return v;
}

inline std::size_t x_elems(const tessera::ConvShape& s) { return s.n * s.c * s.h * s.w; }
inline std::size_t w_elems(const tessera::ConvShape& s) { return s.m * s.c * s.k * s.k; }
inline std::size_t y_elems(const tessera::ConvShape& s) { return s.n * s.m * s.out_h() * s.out_w(); }

struct Answer {
  std::vector<long double> y, bound;
};

inline Answer expected(const tessera::ConvShape& s, const std::vector<float>& x, const std::vector<float>& w) {
  const std::size_t ho = s.out_h(), wo = s.out_w();
  Answer a{std::vector<long double>(y_elems(s)), std::vector<long double>(y_elems(s))};
  const long double eps = std::ldexp(1.0L, -24);
  const long double tol = eps + eps * (16 + 4 * std::sqrt(static_cast<long double>(s.c * s.k * s.k)));
  for (std::size_t n = 0; n < s.n; ++n)
    for (std::size_t m = 0; m < s.m; ++m)
      for (std::size_t i = 0; i < ho; ++i)
        for (std::size_t j = 0; j < wo; ++j) {
          long double sum = 0, abs = 0;
          for (std::size_t c = 0; c < s.c; ++c)
            for (std::size_t p = 0; p < s.k; ++p)
              for (std::size_t q = 0; q < s.k; ++q) {
                const long long r = static_cast<long long>(i * s.stride + p) - s.pad;
                const long long t = static_cast<long long>(j * s.stride + q) - s.pad;
                if (r < 0 || t < 0 || r >= static_cast<long long>(s.h) || t >= static_cast<long long>(s.w)) continue;
                const long double prod = static_cast<long double>(w[((m * s.c + c) * s.k + p) * s.k + q]) *
                                          x[((n * s.c + c) * s.h + std::size_t(r)) * s.w + std::size_t(t)];
                sum += prod;
                abs += std::fabs(prod);
              }
          const std::size_t o = ((n * s.m + m) * ho + i) * wo + j;
          a.y[o] = sum;
          a.bound[o] = tol * abs;
        }
  return a;
}

// Every output within its bound; the first failure described.
inline ::testing::AssertionResult within_bound(const std::vector<float>& got, const Answer& a) {
  if (got.size() != a.y.size()) return ::testing::AssertionFailure() << "size " << got.size() << " != " << a.y.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - a.y[i]);
    if (!(err <= a.bound[i]))
      return ::testing::AssertionFailure() << "y[" << i << "] = " << got[i] << ", expected "
                                           << static_cast<double>(a.y[i]) << " (bound "
                                           << static_cast<double>(a.bound[i]) << ")";
  }
  return ::testing::AssertionSuccess();
}

inline tessera::ConvShape layer(std::size_t n, std::size_t c, std::size_t h, std::size_t w, std::size_t m,
                                std::size_t k, long long pad = 0, std::size_t stride = 1) {
  return {.n = n, .c = c, .h = h, .w = w, .m = m, .k = k, .pad = pad, .stride = stride};
}

inline std::string name_of(const tessera::ConvShape& s) {
  std::ostringstream o;
  o << "n" << s.n << " c" << s.c << " " << s.h << "x" << s.w << " m" << s.m << " k" << s.k << " pad " << s.pad
    << " stride " << s.stride;
  return o.str();
}

// The edge layers every rung must get right: k = 1, k = h (one output row),
// k = h + 2 pad, c = 1, m = 1 and m not a multiple of any tile (5, 33, 65,
// 129), n = 3, pad 1 and 2, strides 2 and 4, non-square images, a deep
// inner dimension over a tiny image (the implicit GEMM's k slices).
inline std::vector<tessera::ConvShape> edge_layers() {
  return {layer(2, 3, 9, 9, 5, 1),       layer(3, 4, 7, 7, 6, 7),       layer(1, 2, 5, 5, 3, 7, 1),
          layer(2, 1, 13, 11, 7, 3),     layer(3, 5, 11, 11, 1, 3, 1),  layer(3, 7, 10, 12, 33, 3, 1),
          layer(2, 9, 12, 12, 65, 3, 2), layer(3, 16, 9, 9, 129, 3, 1), layer(3, 3, 17, 17, 8, 5, 2),
          layer(2, 5, 15, 16, 12, 3, 1, 2), layer(2, 3, 47, 47, 10, 11, 0, 4), layer(3, 13, 23, 19, 37, 5, 2),
          layer(1, 300, 5, 5, 100, 3, 1), layer(1, 1, 1, 1, 1, 1),      layer(3, 32, 20, 20, 96, 3, 1)};
}

// The answer with each output's bound replaced by the sum of the bounds of
// the valid outputs of its tile x tile output block (same image and
// filter): the scale winograd_f4x3 is checked at (each of its 4x4 tiles
// comes from one 6x6 patch; docs/convnet.md, "Winograd F(4x4, 3x3)").
inline Answer at_tile_scale(const tessera::ConvShape& s, Answer a, std::size_t tile = 4) {
  const std::size_t ho = s.out_h(), wo = s.out_w();
  const std::vector<long double> own = a.bound;
  for (std::size_t plane = 0; plane < s.n * s.m; ++plane)
    for (std::size_t th = 0; th < ho; th += tile)
      for (std::size_t tw = 0; tw < wo; tw += tile) {
        const std::size_t h_end = std::min(th + tile, ho), w_end = std::min(tw + tile, wo);
        long double sum = 0;
        for (std::size_t p = th; p < h_end; ++p)
          for (std::size_t q = tw; q < w_end; ++q) sum += own[(plane * ho + p) * wo + q];
        for (std::size_t p = th; p < h_end; ++p)
          for (std::size_t q = tw; q < w_end; ++q) a.bound[(plane * ho + p) * wo + q] = sum;
      }
  return a;
}

}  // namespace convnet_test
