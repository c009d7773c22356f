// The CUDA batched_scan ladder, one line per variant.
#include <span>

#include "cuda/batched_scan/rungs.hpp"
#include "patterns/batched_scan.hpp"

namespace tessera::batched_scan_impl {

std::span<const ScanVariant> cuda_variants() { return {}; }
std::span<const ScanVariant> vendor_variants() { return {}; }

}  // namespace tessera::batched_scan_impl
