// The public spmv API's body in CPU-only builds: pointers are host pointers
// and the CPU rungs run. api.cpp serves CUDA builds.
#if !TESSERA_HAVE_CUDA
#include <vector>

#include "families/spmv/api_common.hpp"

namespace tessera::spmv_impl {

void spmv_entry(const SpmvSpec& spec, const CsrArrays& a, const void* x, void* y, const SpmvOptions& o) {
  const SpmvVariant& v = resolve(spec, o.variant, API_NAME);
  check_pointers(spec, a, x, y, API_NAME);
  if (o.validate_structure) check_structure_host(spec, a, API_NAME);
  const std::size_t need = v.workspace_bytes(spec);
  const bool given = o.workspace.ptr != nullptr;
  require(!given || o.workspace.bytes >= need,
          fmt::format("{}: the workspace holds {} B but this call needs {} B", API_NAME, o.workspace.bytes, need));
  if (spec.rows == 0) return;
  std::vector<unsigned char> own(given ? 0 : need);
  v.run({spec, a, x, y, o.alpha, o.beta, nullptr, given ? o.workspace.ptr : own.data(), o.stream});
}

std::size_t spmv_entry_workspace(const SpmvSpec& spec, const SpmvOptions& o) {
  return resolve(spec, o.variant, WORKSPACE_QUERY).workspace_bytes(spec);
}

}  // namespace tessera::spmv_impl

#endif  // !TESSERA_HAVE_CUDA
