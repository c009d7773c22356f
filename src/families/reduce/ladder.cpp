// The reduce ladder in order: CPU rungs, CUDA rungs, vendor baseline, sorted
// by step (stable, so table order breaks ties).
#include <algorithm>
#include <vector>

#include "families/reduce/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::reduce_impl {

#if !TESSERA_HAVE_CUDA
std::span<const ReduceVariant> cuda_variants() { return {}; }
std::span<const ReduceVariant> vendor_variants() { return {}; }
#endif

ladder::Ladder<ReduceVariant>& variants_ladder() {
  static ladder::Ladder<ReduceVariant> ladder = [] {
    std::vector<ReduceVariant> rows;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) rows.insert(rows.end(), table.begin(), table.end());
    return ladder::Ladder<ReduceVariant>(rows);
  }();
  return ladder;
}

std::span<const ReduceVariant> all_variants() { return variants_ladder().all(); }

const ReduceVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

}  // namespace tessera::reduce_impl
