// Public convnet API (CUDA builds): validation, memory kinds, workspace,
// dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/convnet/api_common.hpp"

namespace tessera {

void conv_forward(const float* x, const float* w, float* y, const ConvShape& shape, const ConvOptions& options) {
  using namespace conv_impl;
  const ConvSpec spec = checked_spec(shape);
  check_pointers(spec, x, w, y);
  const ConvVariant& v = variant_for(spec, options.variant);
  api::require_memory(v.info.backend, x, "x", WHO, v.info.name);
  api::require_memory(v.info.backend, w, "w", WHO, v.info.name);
  api::require_memory(v.info.backend, y, "y", WHO, v.info.name);
  if (v.prepare != nullptr) v.prepare(spec);
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    // CPU variants run synchronously, in stream order.
    api::wait_for_stream(options.stream);
    v.run({spec, x, w, y, nullptr, options.stream});
    return;
  }
  api::AsyncScratch ws(ws_bytes, options.workspace, options.stream, WHO);
  v.run({spec, x, w, y, ws.get(), options.stream});
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
