// The public workspace query, the same in every build: the bytes the variant
// that would run needs (api_common.hpp resolves it as the call does).
#include "families/batched_scan/api_common.hpp"

namespace tessera {

std::size_t batched_scan_workspace_bytes(std::size_t rows, std::size_t len, const BatchedScanOptions& options) {
  const batched_scan_impl::ScanSpec spec = batched_scan_impl::checked_spec(rows, len, options);
  if (rows == 0 || len == 0) return 0;
  return batched_scan_impl::variant_for(spec, options).workspace_bytes(spec);
}

}  // namespace tessera
