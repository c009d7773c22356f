// The reduce ladder in order: CPU rungs, CUDA rungs, vendor baseline, sorted
// by step (stable, so table order breaks ties).
#include <algorithm>
#include <vector>

#include "patterns/reduce.hpp"

namespace tessera::reduce_impl {

#if !TESSERA_HAVE_CUDA
std::span<const ReduceVariant> cuda_variants() { return {}; }
std::span<const ReduceVariant> vendor_variants() { return {}; }
#endif

std::span<const ReduceVariant> all_variants() {
  static const std::vector<ReduceVariant> all = [] {
    std::vector<ReduceVariant> v;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) v.insert(v.end(), table.begin(), table.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.info.step < b.info.step; });
    return v;
  }();
  return all;
}

const ReduceVariant* find_variant(std::string_view name) {
  for (const auto& v : all_variants())
    if (v.info.name == name) return &v;
  return nullptr;
}

}  // namespace tessera::reduce_impl
