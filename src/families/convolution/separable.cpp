#include "families/convolution/separable.hpp"

#include <cmath>

namespace tessera::convolution_impl {

std::optional<SeparableTaps> find_separable(const float* mask, std::size_t mask_w, std::size_t mask_h,
                                            double tolerance) {
  if (tolerance < 0 || mask_w == 0 || mask_h == 0) return std::nullopt;
  std::size_t p = 0, q = 0;
  double biggest = 0;
  for (std::size_t y = 0; y < mask_h; ++y)
    for (std::size_t x = 0; x < mask_w; ++x)
      if (std::fabs(double(mask[y * mask_w + x])) > biggest) {
        biggest = std::fabs(double(mask[y * mask_w + x]));
        p = y;
        q = x;
      }
  SeparableTaps t;
  t.col.resize(mask_h);
  t.row.resize(mask_w);
  if (biggest == 0) {  // the zero mask: 0 x 0
    return t;
  }
  const double pivot = mask[p * mask_w + q];
  for (std::size_t y = 0; y < mask_h; ++y) t.col[y] = mask[y * mask_w + q];
  for (std::size_t x = 0; x < mask_w; ++x) t.row[x] = static_cast<float>(double(mask[p * mask_w + x]) / pivot);
  double worst = 0;
  for (std::size_t y = 0; y < mask_h; ++y)
    for (std::size_t x = 0; x < mask_w; ++x)
      worst = std::fmax(worst, std::fabs(double(mask[y * mask_w + x]) - double(t.col[y]) * double(t.row[x])));
  t.max_error = worst / biggest;
  if (!(t.max_error <= tolerance)) return std::nullopt;
  return t;
}

}  // namespace tessera::convolution_impl
