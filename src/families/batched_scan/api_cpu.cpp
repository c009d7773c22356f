// Public batched_scan API in CPU-only builds: pointers are host pointers and
// the CPU rungs run (synchronously; options.stream is ignored).
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include <vector>

#include "families/batched_scan/api_common.hpp"

namespace tessera {

std::string batched_scan_default_variant(std::size_t, std::size_t, Accum, ScanDirection) { return "cpu_openmp"; }

void batched_scan(const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, std::size_t rows,
                  std::size_t len, const BatchedScanOptions& options) {
  batched_scan_impl::ScanSpec spec;
  const auto& v = batched_scan_impl::resolve(in, in_pitch, out, out_pitch, rows, len, options, spec);
  if (rows == 0 || len == 0) return;
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  v.run({spec, in, out, ws.empty() ? nullptr : ws.data(), options.stream});
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
