// Separability of a 2D mask, found on the host: a mask of rank 1 is the outer
// product of a column and a row, mask[y][x] = col[y] * row[x], and the
// convolution is then two 1D passes (mask_w + mask_h taps per output instead
// of mask_w * mask_h).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace tessera::convolution_impl {

struct SeparableTaps {
  std::vector<float> col;  // mask_h taps
  std::vector<float> row;  // mask_w taps
  double max_error = 0;    // max |mask - col x row| / max |mask|
};

// The factors when max |mask[y][x] - col[y] * row[x]| <= tolerance * max |mask|,
// else nothing. The pivot is the mask's largest element (p, q): col is column
// q, row is row p divided by mask[p][q], so the rank-1 fit is exact there and
// the test needs no SVD. An all-zero mask and masks of one row or column are
// separable trivially; tolerance < 0 turns the detection off.
std::optional<SeparableTaps> find_separable(const float* mask, std::size_t mask_w, std::size_t mask_h,
                                            double tolerance);

}  // namespace tessera::convolution_impl
