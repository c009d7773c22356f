// Public moving_average API (CUDA builds): validation, memory kinds, the
// weights' upload into the workspace, dispatch. api_cpu.cpp serves CPU-only
// builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "core/device_memory.hpp"
#include "families/moving_average/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

template <class T>
void moving_average(const T* in, std::size_t n, T* out, std::span<const T> weights,
                    const MovingAverageOptions& options) {
  using namespace moving_average_impl;
  const MovingAverageSpec spec = checked_spec(in, n, out, weights, options);
  const MovingAverageVariant& v = resolve(spec, options.variant, api::gpu_present());
  api::require_memory(v.info.backend, in, "in", WHO, v.info.name);
  api::require_memory(v.info.backend, out, "out", WHO, v.info.name);
  if (v.info.backend == Backend::cpu) {
    api::wait_for_stream(options.stream);
    v.run({spec, in, out, weights.data(), nullptr, options.stream});
    return;
  }
  // The weights travel to the device in the workspace's first slot
  // (stream-ordered; from pageable host memory, the copy is staged before
  // cudaMemcpyAsync returns, so `weights` may go away after the call).
  const std::size_t slot = weights_slot(spec.w, sizeof(T));
  api::AsyncScratch ws(slot + v.workspace_bytes(spec), options.workspace, options.stream, WHO);
  auto* base = static_cast<unsigned char*>(ws.get());
  TESSERA_CUDA(cudaMemcpyAsync(base, weights.data(), spec.w * sizeof(T), cudaMemcpyHostToDevice, options.stream));
  v.run({spec, in, out, base, base + slot, options.stream});
}

TESSERA_MOVING_AVERAGE_INSTANTIATE_CALL(float)
TESSERA_MOVING_AVERAGE_INSTANTIATE_CALL(double)

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
