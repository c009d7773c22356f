// The transpose ladder in order: CPU rungs, CUDA rungs, vendor baseline,
// sorted by step (stable, so table order breaks ties: the baselines of step 2
// keep naive_strided_write first, the naive rung the harness compares with).
#include <algorithm>
#include <vector>

#include "families/transpose/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::transpose_impl {

#if !TESSERA_HAVE_CUDA
std::span<const TransposeVariant> cuda_variants() { return {}; }
std::span<const TransposeVariant> vendor_variants() { return {}; }
#endif

bool word_sized(Dtype t) {
  return t == Dtype::f32 || t == Dtype::f64 || t == Dtype::i32 || t == Dtype::i64 || t == Dtype::u32;
}

ladder::Ladder<TransposeVariant>& variants_ladder() {
  static ladder::Ladder<TransposeVariant> ladder = [] {
    std::vector<TransposeVariant> rows;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) rows.insert(rows.end(), table.begin(), table.end());
    return ladder::Ladder<TransposeVariant>(rows);
  }();
  return ladder;
}

std::span<const TransposeVariant> all_variants() { return variants_ladder().all(); }

const TransposeVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

}  // namespace tessera::transpose_impl
