// Winograd F(4x4, 3x3) on the CPU: a model of winograd_f4x3's arithmetic
// (the transforms of winograd_f4x3.hpp, which the kernels run too; the 36
// products summed over c by fmaf in channel order, as the GEMM's threads
// do; 4x4 tiles at stride 4 with zero padding and clipped output) checked
// against the long-double answer of convnet_test_support.hpp. It pins the
// error factor the verify bound uses (F4X3_ERROR_FACTOR) and the tiling at
// the image edges that the kernels share.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "convnet_test_support.hpp"
#include "families/convnet/winograd_f4x3.hpp"

namespace {

namespace f4x3 = tessera::conv_impl::f4x3;
using convnet_test::layer;
using tessera::ConvShape;

// y of a 3x3, stride-1 layer through the F(4x4, 3x3) algorithm in float.
std::vector<float> winograd_model(const ConvShape& s, const std::vector<float>& x, const std::vector<float>& w) {
  const std::size_t ho = s.out_h(), wo = s.out_w();
  const std::size_t tiles_h = (ho + 3) / 4, tiles_w = (wo + 3) / 4;
  std::vector<float> u(s.m * s.c * f4x3::POS);
  for (std::size_t i = 0; i < s.m * s.c; ++i) {
    float g[9], out[f4x3::POS];
    std::copy_n(w.begin() + static_cast<std::ptrdiff_t>(i * 9), 9, g);
    f4x3::filter_transform(g, out);
    std::copy_n(out, f4x3::POS, u.begin() + static_cast<std::ptrdiff_t>(i * f4x3::POS));
  }
  std::vector<float> y(convnet_test::y_elems(s), 0.0f);
  std::vector<float> v(s.c * f4x3::POS);
  for (std::size_t n = 0; n < s.n; ++n)
    for (std::size_t th = 0; th < tiles_h; ++th)
      for (std::size_t tw = 0; tw < tiles_w; ++tw) {
        for (std::size_t c = 0; c < s.c; ++c) {
          float d[f4x3::POS], out[f4x3::POS];
          for (int r = 0; r < 6; ++r)
            for (int q = 0; q < 6; ++q) {
              const long long hi = static_cast<long long>(4 * th) + r - s.pad;
              const long long wi = static_cast<long long>(4 * tw) + q - s.pad;
              const bool in = hi >= 0 && wi >= 0 && hi < static_cast<long long>(s.h) && wi < static_cast<long long>(s.w);
              d[6 * r + q] = in ? x[((n * s.c + c) * s.h + std::size_t(hi)) * s.w + std::size_t(wi)] : 0.0f;
            }
          f4x3::input_transform(d, out);
          std::copy_n(out, f4x3::POS, v.begin() + static_cast<std::ptrdiff_t>(c * f4x3::POS));
        }
        for (std::size_t m = 0; m < s.m; ++m) {
          float sums[f4x3::POS] = {}, tile[16];
          for (std::size_t c = 0; c < s.c; ++c)
            for (int e = 0; e < f4x3::POS; ++e) sums[e] = std::fma(u[(m * s.c + c) * f4x3::POS + e], v[c * f4x3::POS + e], sums[e]);
          f4x3::output_transform(sums, tile);
          for (std::size_t p = 0; p < 4; ++p)
            for (std::size_t q = 0; q < 4; ++q)
              if (4 * th + p < ho && 4 * tw + q < wo) y[((n * s.m + m) * ho + 4 * th + p) * wo + 4 * tw + q] = tile[4 * p + q];
        }
      }
  return y;
}

// Winograd's error is not a property of one output's own terms: each of the
// tile's 36 sums mixes the whole 6x6 patch, so an output whose own window is
// mostly padding (pad 2, a corner) carries the rounding of its neighbours'
// inputs too. Its scale is the tile's (convnet_test::at_tile_scale): the sum
// of the direct bounds of the valid outputs of its 4x4 tile, which counts
// every product of the patch at least once.

// The largest error as a fraction of winograd_f4x3's bound (F4X3_ERROR_FACTOR
// times the tile's direct bound; with `own`, of the output's own direct
// bound instead); NaN counts as infinitely far.
double worst_fraction(const ConvShape& s, const std::vector<float>& got, const convnet_test::Answer& a,
                      bool own = false) {
  const std::vector<long double> tile = own ? a.bound : convnet_test::at_tile_scale(s, a).bound;
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - a.y[i]);
    const double f = static_cast<double>(err / (tile[i] * f4x3::F4X3_ERROR_FACTOR));
    worst = std::isnan(f) ? INFINITY : std::max(worst, f);
  }
  return worst;
}

// One tile of one channel: the transforms compute the 4x4 correlation of a
// 6x6 patch with a 3x3 filter (small integers: exact in float).
TEST(ConvnetF4x3Cpu, OneTileIsTheCorrelation) {
  float g[9], d[f4x3::POS];
  for (int i = 0; i < 9; ++i) g[i] = float(i % 4 - 1);
  for (int i = 0; i < f4x3::POS; ++i) d[i] = float((i * 7) % 5 - 2);
  float u[f4x3::POS], v[f4x3::POS], prod[f4x3::POS], y[16];
  f4x3::filter_transform(g, u);
  f4x3::input_transform(d, v);
  for (int e = 0; e < f4x3::POS; ++e) prod[e] = u[e] * v[e];
  f4x3::output_transform(prod, y);
  for (int p = 0; p < 4; ++p)
    for (int q = 0; q < 4; ++q) {
      double direct = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) direct += double(g[3 * i + j]) * d[6 * (p + i) + q + j];
      EXPECT_NEAR(y[4 * p + q], direct, 1e-5 * 36) << "p " << p << " q " << q;
    }
}

// Layers with partial last tiles, tiny images under pad 1 (1x1 .. 5x5), pad
// 0 and 2, c = 1, m = 1, non-square images, a deep channel sum: every output
// within winograd_f4x3's bound, using at most half of it (the factor's
// comment claims 4x margin).
TEST(ConvnetF4x3Cpu, ErrorStaysWithinTheStatedFactor) {
  const ConvShape layers[] = {layer(2, 3, 1, 1, 5, 3, 1),   layer(1, 4, 2, 2, 1, 3, 1),   layer(3, 1, 3, 3, 6, 3, 1),
                              layer(1, 5, 4, 4, 7, 3, 1),   layer(2, 2, 5, 5, 3, 3, 1),   layer(1, 33, 9, 9, 67, 3, 1),
                              layer(2, 1, 13, 11, 7, 3),    layer(2, 9, 12, 12, 5, 3, 2), layer(1, 3, 10, 17, 4, 3, 1),
                              layer(1, 256, 6, 6, 3, 3, 1), layer(1, 512, 5, 5, 2, 3, 1), layer(3, 1, 15, 15, 4, 3, 2)};
  std::uint32_t seed = 40;
  for (const ConvShape& s : layers) {
    SCOPED_TRACE(convnet_test::name_of(s));
    const auto x = convnet_test::random_floats(convnet_test::x_elems(s), seed++);
    const auto w = convnet_test::random_floats(convnet_test::w_elems(s), seed++);
    const double f = worst_fraction(s, winograd_model(s, x, w), convnet_test::expected(s, x, w));
    EXPECT_LE(f, 0.5);
  }
}

// The tile's scale is needed: measured against each output's own direct
// bound, the model fails where padding leaves a corner output few terms of
// its own (c = 1, pad 2: 6-18x that bound).
TEST(ConvnetF4x3Cpu, OwnTermsAreTheWrongScale) {
  const ConvShape s = layer(8, 1, 16, 16, 8, 3, 2);
  const auto x = convnet_test::random_floats(convnet_test::x_elems(s), 5);
  const auto w = convnet_test::random_floats(convnet_test::w_elems(s), 6);
  const auto y = winograd_model(s, x, w);
  const auto answer = convnet_test::expected(s, x, w);
  EXPECT_GT(worst_fraction(s, y, answer, true), 2.0);
  EXPECT_LE(worst_fraction(s, y, answer), 0.5);
}

}  // namespace
