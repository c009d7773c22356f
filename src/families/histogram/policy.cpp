// The public API's choice of variant: policy.hpp's rules, the same code in
// CUDA and CPU-only builds.
#include <span>

#include "families/histogram/contract.hpp"
#include "families/histogram/policy.hpp"
#include "tessera/histogram.hpp"

namespace tessera {

std::string histogram_default_variant(Dtype type, int bins, std::size_t n) {
#if TESSERA_HAVE_CUDA
  const std::span<const histogram_impl::policy::Rule> rules = histogram_impl::policy::GPU_RULES;
#else
  const std::span<const histogram_impl::policy::Rule> rules = histogram_impl::policy::CPU_RULES;
#endif
  // Bytes always have 256 bins; a float range is only needed for supports().
  const histogram_impl::HistogramSpec spec{type, n, type == Dtype::u8 ? histogram_impl::BYTE_BINS : bins, 0.0f, 1.0f};
  for (const auto& rule : rules) {
    if (rule.dtype != spec.dtype || spec.bins > rule.max_bins) continue;
    const auto* v = histogram_impl::variants_ladder().find(rule.variant);
    if (v != nullptr && v->supports(spec)) return std::string(rule.variant);
  }
  return std::string(rules.back().variant);  // takes any bin count
}

}  // namespace tessera
