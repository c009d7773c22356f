// The scan ladder in order: CPU rungs, CUDA rungs, vendor baseline.
#include <vector>

#include "families/scan/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::scan_impl {

#if !TESSERA_HAVE_CUDA
std::span<const ScanVariant> cuda_variants() { return {}; }
std::span<const ScanVariant> vendor_variants() { return {}; }
#endif

ladder::Ladder<ScanVariant>& variants_ladder() {
  static ladder::Ladder<ScanVariant> ladder = [] {
    std::vector<ScanVariant> rows;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) rows.insert(rows.end(), table.begin(), table.end());
    return ladder::Ladder<ScanVariant>(rows);
  }();
  return ladder;
}

std::span<const ScanVariant> all_variants() { return variants_ladder().all(); }

const ScanVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

}  // namespace tessera::scan_impl
