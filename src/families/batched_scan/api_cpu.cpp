// Public batched_scan API in CPU-only builds: pointers are host pointers and
// the CPU rungs run (synchronously; options.stream is ignored).
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include <vector>

#include "families/batched_scan/api_common.hpp"

namespace tessera {

std::string batched_scan_default_variant(std::size_t, std::size_t, Accum, ScanDirection) { return "cpu_openmp"; }

void batched_scan(const float* in, std::size_t rows, std::size_t len, float* out, const BatchedScanOptions& options) {
  batched_scan_impl::ScanSpec spec;
  const auto& v = batched_scan_impl::resolve(in, rows, len, out, options, spec);
  if (rows == 0 || len == 0) return;
  std::vector<unsigned char> owned;
  void* ws = batched_scan_impl::host_scratch(v.workspace_bytes(spec), options.workspace, owned);
  v.run({spec, in, out, ws, options.stream});
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
