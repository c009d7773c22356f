// What a histogram call counts: the checks of a float range and the spec's
// name in messages and problem labels.
#include <fmt/format.h>

#include <cmath>

#include "families/histogram/contract.hpp"

namespace tessera::histogram_impl {

std::string even_bins_problem(int bins, float lo, float hi) {
  if (bins < 1 || bins > MAX_BINS) return fmt::format("bins = {} (must be 1..{})", bins, MAX_BINS);
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return fmt::format("range [lo, hi) = [{}, {}): lo and hi must be finite (not NaN or inf)", lo, hi);
  if (!(lo < hi)) return fmt::format("empty or inverted range [lo, hi) = [{}, {})", lo, hi);
  const float range = hi - lo;
  if (!std::isfinite(range)) return fmt::format("range [lo, hi) = [{}, {}): hi - lo overflows float", lo, hi);
  const float scale = static_cast<float>(bins) / range;
  if (!std::isfinite(scale) || !(scale > 0.0f))
    return fmt::format("range [lo, hi) = [{}, {}): bins / (hi - lo) = {} / {} is not a finite float", lo, hi, bins,
                       range);
  return {};
}

std::string describe(const HistogramSpec& s) {
  if (s.dtype == Dtype::u8) return fmt::format("uint8 256 bins n={}", s.n);
  return fmt::format("{} {} bins [{}, {}) n={}", to_string(s.dtype), s.bins, s.lo, s.hi, s.n);
}

}  // namespace tessera::histogram_impl
