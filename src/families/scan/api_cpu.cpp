// The public scan API's body in CPU-only builds: pointers are host pointers
// and the CPU rungs run. api.cpp serves CUDA builds.
#if !TESSERA_HAVE_CUDA
#include <vector>

#include "families/scan/api_common.hpp"

namespace tessera::scan_impl {

void scan_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool exclusive, const ScanOptions& o) {
  const ScanSpec spec = spec_of(dtype, n, exclusive, o);
  const ScanVariant& v = resolve(spec, o.variant, in, out);
  if (n == 0) return;
  const std::size_t need = v.workspace_bytes(spec);
  const bool given = o.workspace.ptr != nullptr;
  require(!given || o.workspace.bytes >= need, fmt::format("{}: the workspace holds {} B but this call needs {} B",
                                                           api_name(exclusive), o.workspace.bytes, need));
  std::vector<unsigned char> own(given ? 0 : need);
  v.run({spec, in, out, given ? o.workspace.ptr : own.data(), o.stream});
}

}  // namespace tessera::scan_impl

#endif  // !TESSERA_HAVE_CUDA
