// The public scan API's body in CUDA builds: validation, memory kinds,
// workspace, dispatch. api_cpu.cpp serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/scan/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::scan_impl {

void scan_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool exclusive, const ScanOptions& o) {
  const ScanSpec spec = spec_of(dtype, n, exclusive, o);
  const ScanVariant& v = resolve(spec, o.variant, in, out);
  if (n == 0) return;
  const char* who = api_name(exclusive);
  api::require_memory(v.info.backend, in, "d_in", who, v.info.name);
  api::require_memory(v.info.backend, out, "d_out", who, v.info.name);
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    api::wait_for_stream(o.stream);
    v.run({spec, in, out, ws.data(), o.stream});
    return;
  }
  api::AsyncScratch ws(ws_bytes, o.workspace, o.stream, who);
  v.run({spec, in, out, ws.get(), o.stream});
}

}  // namespace tessera::scan_impl

#endif  // TESSERA_HAVE_CUDA
