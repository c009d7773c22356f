// The transpose ladder in order: CPU rungs, CUDA rungs, vendor baseline,
// sorted by step (stable, so table order breaks ties: the baselines of step 2
// keep naive_strided_write first, the naive rung the harness compares with).
#include <algorithm>
#include <vector>

#include "patterns/transpose.hpp"

namespace tessera::transpose_impl {

#if !TESSERA_HAVE_CUDA
std::span<const TransposeVariant> cuda_variants() { return {}; }
std::span<const TransposeVariant> vendor_variants() { return {}; }
#endif

bool word_sized(Dtype t) {
  return t == Dtype::f32 || t == Dtype::f64 || t == Dtype::i32 || t == Dtype::i64 || t == Dtype::u32;
}

std::span<const TransposeVariant> all_variants() {
  static const std::vector<TransposeVariant> all = [] {
    std::vector<TransposeVariant> v;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) v.insert(v.end(), table.begin(), table.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.info.step < b.info.step; });
    return v;
  }();
  return all;
}

const TransposeVariant* find_variant(std::string_view name) {
  for (const auto& v : all_variants())
    if (v.info.name == name) return &v;
  return nullptr;
}

}  // namespace tessera::transpose_impl
