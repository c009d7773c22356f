// Public stencil7 API (CUDA builds): validation, memory kinds, workspace,
// dispatch. api_cpu.cpp serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <vector>

#include "core/device_memory.hpp"
#include "families/stencil7/api_common.hpp"

namespace tessera {

template <class T>
void stencil7(const T* d_in, T* d_out, std::size_t nx, std::size_t ny, std::size_t nz, int sweeps, T c0, T c1,
              const Stencil7Options& o) {
  using namespace stencil7_impl;
  const Stencil7Spec spec = checked_spec(dtype_of<T>(), nx, ny, nz, sweeps, double(c0), double(c1), WHO);
  check_pointers(spec, d_in, d_out);
  const Stencil7Variant& v = resolve_variant(spec, o.variant, WHO);
  api::require_memory(v.info.backend, d_in, "d_in", WHO, v.info.name);
  api::require_memory(v.info.backend, d_out, "d_out", WHO, v.info.name);
  const std::size_t need = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    const bool given = o.workspace.ptr != nullptr;
    require(!given || o.workspace.bytes >= need,
            fmt::format("{}: the workspace holds {} B but this call needs {} B", WHO, o.workspace.bytes, need));
    std::vector<unsigned char> own(given ? 0 : need);
    api::wait_for_stream(o.stream);
    v.run({spec, d_in, d_out, given ? o.workspace.ptr : own.data(), o.stream});
    return;
  }
  api::AsyncScratch ws(need, o.workspace, o.stream, WHO);
  v.run({spec, d_in, d_out, ws.get(), o.stream});
}

TESSERA_STENCIL7_INSTANTIATE(float)
TESSERA_STENCIL7_INSTANTIATE(double)

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
