// The GEMM ladders in order: CPU rungs, CUDA rungs, vendor baselines, sorted
// by step (stable, so table order breaks ties). Steps 0-11 are the C = A*B
// ladder, 12-16 the C = A*A^T ladder; the CPU rungs serve both.
#include <algorithm>
#include <vector>

#include "patterns/gemm.hpp"

namespace tessera::gemm_impl {

#if !TESSERA_HAVE_CUDA
std::span<const GemmVariant> cuda_variants() { return {}; }
std::span<const GemmVariant> vendor_variants() { return {}; }
#endif

std::string_view to_string(GemmOp op) noexcept { return op == GemmOp::ab ? "ab" : "aat"; }

std::span<const GemmVariant> all_variants() {
  static const std::vector<GemmVariant> all = [] {
    std::vector<GemmVariant> v;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) v.insert(v.end(), table.begin(), table.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.info.step < b.info.step; });
    return v;
  }();
  return all;
}

const GemmVariant* find_variant(std::string_view name) {
  for (const auto& v : all_variants())
    if (v.info.name == name) return &v;
  return nullptr;
}

}  // namespace tessera::gemm_impl
