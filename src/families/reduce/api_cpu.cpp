// The public reduce API's body in CPU-only builds: pointers are host
// pointers and the CPU rungs run. api.cpp serves CUDA builds.
#if !TESSERA_HAVE_CUDA
#include <vector>

#include "families/reduce/api_common.hpp"

namespace tessera::reduce_impl {

void reduce_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool out_on_host, const ReduceOptions& o) {
  const char* who = api_name(out_on_host);
  const ReduceSpec spec = spec_of(dtype, n, o);
  const ReduceVariant& v = resolve(spec, o.variant, in, out, who);
  const std::size_t need = v.workspace_bytes(spec);
  const bool given = o.workspace.ptr != nullptr;
  require(!given || o.workspace.bytes >= need,
          fmt::format("{}: the workspace holds {} B but this call needs {} B", who, o.workspace.bytes, need));
  std::vector<unsigned char> own(given ? 0 : need);
  v.run({spec, in, out, given ? o.workspace.ptr : own.data(), o.stream});
}

std::size_t reduce_entry_workspace(Dtype dtype, std::size_t n, const ReduceOptions& o) {
  const ReduceSpec spec = spec_of(dtype, n, o);
  return resolve(spec, o.variant, WORKSPACE_QUERY).workspace_bytes(spec);
}

}  // namespace tessera::reduce_impl

#endif  // !TESSERA_HAVE_CUDA
