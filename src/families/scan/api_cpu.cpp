// Public scan API in CPU-only builds: pointers are host pointers and the CPU
// rungs run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include <vector>

#include "families/scan/api_common.hpp"

namespace tessera {

void scan_impl::scan_entry(Dtype dtype, const void* in, void* out, std::size_t n, Op op, bool exclusive,
                           const ScanOptions& options) {
  const scan_impl::ScanSpec spec{dtype, op, options.accum, exclusive, n};
  const auto& v = scan_impl::resolve(spec, options.variant, in, out);
  if (n == 0) return;
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  v.run({spec, in, out, ws.data(), options.stream});
}

std::string scan_default_variant(Dtype, Op, Accum, bool, std::size_t) { return "cpu_openmp"; }

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
