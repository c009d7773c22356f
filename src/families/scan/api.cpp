// The public scan API's body in CUDA builds: validation, memory kinds,
// workspace, dispatch. api_cpu.cpp serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/scan/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::scan_impl {

using api::Memory;

void scan_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool exclusive, const ScanOptions& o) {
  const ScanSpec spec = spec_of(dtype, n, exclusive, o);
  const ScanVariant& v = resolve(spec, o.variant, in, out);
  if (n == 0) return;
  const char* who = api_name(exclusive);
  const Memory want = v.info.backend == Backend::cpu ? Memory::host : Memory::device;
  const char* where = want == Memory::host ? "host" : "device";
  require(api::memory_of(in) == want,
          fmt::format("{}: d_in must point to {} memory for variant '{}'", who, where, v.info.name));
  require(api::memory_of(out) == want,
          fmt::format("{}: d_out must point to {} memory for variant '{}'", who, where, v.info.name));
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    TESSERA_CUDA(cudaStreamSynchronize(o.stream));  // CPU variants run in stream order
    v.run({spec, in, out, ws.data(), o.stream});
    return;
  }
  api::AsyncScratch ws(ws_bytes, o.workspace, o.stream, who);
  v.run({spec, in, out, ws.get(), o.stream});
}

}  // namespace tessera::scan_impl

#endif  // TESSERA_HAVE_CUDA
