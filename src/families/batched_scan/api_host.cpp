// tessera::batched_scan_host: the cpu_* variants on the caller's host memory,
// in every build, with nothing that reaches the CUDA driver (no default
// policy, which asks whether a GPU is present; no pointer attributes; no
// stream synchronisation).
#include <fmt/format.h>

#include <vector>

#include "families/batched_scan/api_common.hpp"

namespace tessera {

void batched_scan_host(const float* in, std::size_t rows, std::size_t len, float* out,
                       const BatchedScanOptions& options) {
  BatchedScanOptions o = options;
  if (o.variant.empty()) o.variant = "cpu_openmp";  // named: resolve() must not ask for the GPU's default
  const batched_scan_impl::ScanVariant* named = batched_scan_impl::find_variant(o.variant);
  require(named == nullptr || named->info.backend == Backend::cpu,
          fmt::format("tessera::batched_scan_host: variant '{}' runs on a GPU; the host entry point takes the cpu_* "
                      "variants only",
                      o.variant));
  batched_scan_impl::ScanSpec spec;
  const auto& v = batched_scan_impl::resolve(in, rows, len, out, o, spec);  // an unknown name is refused here
  if (rows == 0 || len == 0) return;
  std::vector<unsigned char> owned;
  void* ws = batched_scan_impl::host_scratch(v.workspace_bytes(spec), o.workspace, owned);
  v.run({spec, in, out, ws, nullptr});
}

}  // namespace tessera
