// Winograd F(4x4, 3x3)'s three transforms, host and device (the kernels of
// 09_winograd_f4x3.cu and the CPU model of tests/test_convnet_f4x3_cpu.cpp run
// this same arithmetic). With the interpolation points 0, +-1, +-2 and
// infinity (Lavin & Gray's minimal filtering):
//
//   G   = [ 1/4    0     0  ]   B^T = [ 4  0 -5  0  1  0 ]   A^T = [ 1  1  1  1  1  0 ]
//         [-1/6 -1/6  -1/6  ]         [ 0 -4 -4  1  1  0 ]         [ 0  1 -1  2 -2  0 ]
//         [-1/6  1/6  -1/6  ]         [ 0  4 -4 -1  1  0 ]         [ 0  1  1  4  4  0 ]
//         [1/24  1/12  1/6  ]         [ 0 -2 -1  2  1  0 ]         [ 0  1 -1  8 -8  1 ]
//         [1/24 -1/12  1/6  ]         [ 0  2 -1 -2  1  0 ]
//         [ 0     0     1   ]         [ 0  4  0 -5  0  1 ]
//
//   y (4x4) = A^T [ sum over c of (G g G^T) . (B^T d B) ] A,  d the 6x6 input patch.
//
// 36 products per 4x4 output tile and channel instead of 144 (4x fewer than
// the direct form, 1.78x fewer than F(2x2, 3x3)'s 16 per 2x2). The price is
// rounding: the coefficients 4, 5, 8 and 1/6 amplify the error of each product
// (docs/convnet.md, "Winograd F(4x4, 3x3)": F4X3_ERROR_FACTOR below).
#pragma once

#include "tessera/blocks/hd.hpp"

namespace tessera::conv_impl::f4x3 {

inline constexpr int TILE = 4;   // output tile side
inline constexpr int ALPHA = 6;  // input tile side: TILE + 3 - 1
inline constexpr int POS = ALPHA * ALPHA;

// The verify bound of winograd_f4x3. Each of a tile's 36 sums mixes its
// whole 6x6 input patch, so an output's error is not bounded by its own
// terms: where padding leaves a corner output a few terms of its own (pad 2,
// c = 1) the model's error reached 18x the direct sum's bound on them. The
// scale is the tile's instead: F4X3_ERROR_FACTOR times the sum, over the
// valid outputs of the output's 4x4 tile (same image and filter), of the
// direct bound (2^-24 + 2^-24 (16 + 4 sqrt(9 c))) sum |w||x| — every product
// of the patch counted at least once. Measured on the CPU model (this file's
// float arithmetic, the 36 sums over c by fmaf in order as the GEMM's
// threads do) against a long-double answer, inputs U[-1,1) + 0.25, 15x15
// images, pad 0-2, 6 seeds: at most 0.26 of that bound at c = 1, 0.20 at
// c = 2, 0.13 at c = 3, 0.05 at c = 8, 0.03 at c = 64, 0.02 at c = 256.
// Against the outputs' own terms, interior tiles: 57 2^-24 sum |w||x| at
// c = 1, 24 at c = 16, 16 at c = 512 (a direct sum's worst case is ~17 +
// 4 sqrt(9 c)). tests/test_convnet_f4x3_cpu.cpp holds the model to half.
inline constexpr double F4X3_ERROR_FACTOR = 1.0;
inline constexpr int F4X3_ERROR_TILE = TILE;  // the bound's scale: sums over 4x4 output tiles

// o = G g for three values g0, g1, g2 (a column or a row of the filter).
TESSERA_HD void filter_1d(float g0, float g1, float g2, float (&o)[ALPHA]) {
  const float a = g0 + g2;
  o[0] = 0.25f * g0;
  o[1] = (-1.0f / 6.0f) * (a + g1);
  o[2] = (-1.0f / 6.0f) * (a - g1);
  const float b = (1.0f / 24.0f) * g0 + (1.0f / 6.0f) * g2;
  o[3] = b + (1.0f / 12.0f) * g1;
  o[4] = b - (1.0f / 12.0f) * g1;
  o[5] = g2;
}

// o = B^T d for six values.
TESSERA_HD void input_1d(const float (&d)[ALPHA], float (&o)[ALPHA]) {
  o[0] = 4.0f * d[0] - 5.0f * d[2] + d[4];
  o[1] = -4.0f * (d[1] + d[2]) + (d[3] + d[4]);
  o[2] = 4.0f * (d[1] - d[2]) + (d[4] - d[3]);
  o[3] = 2.0f * (d[3] - d[1]) + (d[4] - d[2]);
  o[4] = 2.0f * (d[1] - d[3]) + (d[4] - d[2]);
  o[5] = 4.0f * d[1] - 5.0f * d[3] + d[5];
}

// o = A^T m for six values.
TESSERA_HD void output_1d(const float (&m)[ALPHA], float (&o)[TILE]) {
  const float p12 = m[1] + m[2], m12 = m[1] - m[2], p34 = m[3] + m[4], m34 = m[3] - m[4];
  o[0] = m[0] + p12 + p34;
  o[1] = m12 + 2.0f * m34;
  o[2] = p12 + 4.0f * p34;
  o[3] = m12 + 8.0f * m34 + m[5];
}

// u[6 r + q] = (G g G^T)[r][q] of one 3x3 filter g (row-major).
TESSERA_HD void filter_transform(const float (&g)[9], float (&u)[POS]) {
  float t[3][ALPHA];  // G applied down each column: t[j][r] = (G g)[r][j]
  for (int j = 0; j < 3; ++j) filter_1d(g[j], g[3 + j], g[6 + j], t[j]);
  for (int r = 0; r < ALPHA; ++r) {
    float row[ALPHA];
    filter_1d(t[0][r], t[1][r], t[2][r], row);
    for (int q = 0; q < ALPHA; ++q) u[ALPHA * r + q] = row[q];
  }
}

// v[6 r + q] = (B^T d B)[r][q] of one 6x6 patch d (row-major).
TESSERA_HD void input_transform(const float (&d)[POS], float (&v)[POS]) {
  float t[ALPHA][ALPHA];  // t[q][r] = (B^T d)[r][q]
  for (int q = 0; q < ALPHA; ++q) {
    const float col[ALPHA] = {d[q], d[6 + q], d[12 + q], d[18 + q], d[24 + q], d[30 + q]};
    input_1d(col, t[q]);
  }
  for (int r = 0; r < ALPHA; ++r) {
    const float row[ALPHA] = {t[0][r], t[1][r], t[2][r], t[3][r], t[4][r], t[5][r]};
    float o[ALPHA];
    input_1d(row, o);
    for (int q = 0; q < ALPHA; ++q) v[ALPHA * r + q] = o[q];
  }
}

// y[4 p + q] = (A^T m A)[p][q] of one 6x6 block of summed products m.
TESSERA_HD void output_transform(const float (&m)[POS], float (&y)[TILE * TILE]) {
  float t[ALPHA][TILE];  // t[q][p] = (A^T m)[p][q]
  for (int q = 0; q < ALPHA; ++q) {
    const float col[ALPHA] = {m[q], m[6 + q], m[12 + q], m[18 + q], m[24 + q], m[30 + q]};
    output_1d(col, t[q]);
  }
  for (int p = 0; p < TILE; ++p) {
    const float row[ALPHA] = {t[0][p], t[1][p], t[2][p], t[3][p], t[4][p], t[5][p]};
    float o[TILE];
    output_1d(row, o);
    for (int q = 0; q < TILE; ++q) y[TILE * p + q] = o[q];
  }
}

}  // namespace tessera::conv_impl::f4x3
