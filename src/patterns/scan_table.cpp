// The scan ladder in order: CPU rungs, CUDA rungs, vendor baseline.
#include <vector>

#include "patterns/ladder.hpp"
#include "patterns/scan.hpp"

namespace tessera::scan_impl {

#if !TESSERA_HAVE_CUDA
std::span<const ScanVariant> cuda_variants() { return {}; }
std::span<const ScanVariant> vendor_variants() { return {}; }
#endif

std::span<const ScanVariant> all_variants() {
  static const std::vector<ScanVariant> all = ladder_of({cpu_variants(), cuda_variants(), vendor_variants()});
  return all;
}

const ScanVariant* find_variant(std::string_view name) { return find_by_name(all_variants(), name); }

}  // namespace tessera::scan_impl
