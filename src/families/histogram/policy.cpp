// The public API's choice of variant: policy.hpp's rules, the same code in
// CUDA and CPU-only builds.
#include <span>

#include "core/gpu_present.hpp"
#include "families/histogram/contract.hpp"
#include "families/histogram/policy.hpp"
#include "tessera/histogram.hpp"

namespace tessera {

std::string histogram_impl::policy::pick(Dtype type, int bins, std::size_t n, bool gpu) {
  const std::span<const Rule> rules = gpu ? std::span<const Rule>(GPU_RULES) : std::span<const Rule>(CPU_RULES);
  // Bytes always have 256 bins; a float range is only needed for supports().
  const HistogramSpec spec{type, n, type == Dtype::u8 ? BYTE_BINS : bins, 0.0f, 1.0f};
  for (const auto& rule : rules) {
    if (rule.dtype != spec.dtype || spec.bins > rule.max_bins) continue;
    const auto* v = variants_ladder().find(rule.variant);
    if (v != nullptr && v->supports(spec)) return std::string(rule.variant);
  }
  return std::string(rules.back().variant);  // takes any bin count
}

std::string histogram_default_variant(Dtype type, int bins, std::size_t n) {
  return histogram_impl::policy::pick(type, bins, n, api::gpu_present());
}

}  // namespace tessera
