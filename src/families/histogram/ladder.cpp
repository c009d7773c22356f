// The histogram ladder in order: CPU rungs, CUDA rungs, vendor baseline,
// sorted by step (stable, so table order breaks ties).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "families/histogram/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::histogram_impl {

#if !TESSERA_HAVE_CUDA
std::span<const HistogramVariant> cuda_variants() { return {}; }
std::span<const HistogramVariant> vendor_variants() { return {}; }
#endif

ladder::Ladder<HistogramVariant>& variants_ladder() {
  static ladder::Ladder<HistogramVariant> ladder = [] {
    std::vector<HistogramVariant> rows;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) rows.insert(rows.end(), table.begin(), table.end());
    return ladder::Ladder<HistogramVariant>(rows);
  }();
  return ladder;
}

std::span<const HistogramVariant> all_variants() { return variants_ladder().all(); }

const HistogramVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

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
