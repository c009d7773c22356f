// Public MRI-Q API (CUDA builds): validation, memory kinds, the input scan,
// workspace, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <climits>
#include <vector>

#include "core/device_memory.hpp"
#include "families/mriq/api_common.hpp"
#include "families/mriq/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using mriq_impl::Array;
using mriq_impl::WHO;

// The inputs' first NaN or infinity on the device: one scan kernel per
// array, the eight indices back in one copy, one synchronisation; the
// offending value itself is fetched only when there is one.
void check_finite_device(const Array (&in)[8], cudaStream_t stream) {
  api::AsyncScratch scratch(sizeof(unsigned long long) * 8, stream, WHO);
  auto* first = static_cast<unsigned long long*>(scratch.get());
  TESSERA_CUDA(cudaMemsetAsync(first, 0xFF, sizeof(unsigned long long) * 8, stream));
  for (int a = 0; a < 8; ++a)
    if (in[a].n > 0) mriq_impl::launch_first_nonfinite(in[a].data, in[a].n, first + a, stream);
  unsigned long long host[8];
  TESSERA_CUDA(cudaMemcpyAsync(host, first, sizeof host, cudaMemcpyDeviceToHost, stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  for (int a = 0; a < 8; ++a) {
    if (host[a] == ULLONG_MAX) continue;
    float value = 0;
    TESSERA_CUDA(cudaMemcpy(&value, in[a].data + host[a], sizeof value, cudaMemcpyDeviceToHost));
    throw Error(fmt::format("{}: {}[{}] is {}: every input must be finite", WHO, in[a].name, host[a],
                            std::isnan(value) ? "NaN" : "infinite"));
  }
}

}  // namespace

void mri_q(const float* kx, const float* ky, const float* kz, const float* phi_r, const float* phi_i,
           std::size_t num_k, const float* x, const float* y, const float* z, std::size_t num_x, float* q_r,
           float* q_i, const MriqOptions& options) {
  using namespace mriq_impl;
  MriqCall call = make_call(kx, ky, kz, phi_r, phi_i, num_k, x, y, z, num_x, q_r, q_i, options);
  check_pointers(call);
  const MriqVariant& v = resolve(call.spec, options.variant);
  api::require_runnable(v.info.backend, WHO, v.info.name);
  if (num_x == 0) return;
  const Arrays arrays = arrays_of(call);
  for (const Array& a : arrays.in)
    if (a.n > 0) api::require_memory(v.info.backend, a.data, a.name, WHO, v.info.name);
  for (const Array& a : arrays.out) api::require_memory(v.info.backend, a.data, a.name, WHO, v.info.name);
  if (v.info.backend == Backend::cpu) {
    // CPU variants run synchronously, in stream order.
    api::wait_for_stream(options.stream);
    if (options.check_inputs)
      for (const Array& a : arrays.in) check_finite_host(a);
    v.run(call);
    return;
  }
  if (options.check_inputs) check_finite_device(arrays.in, options.stream);
  api::AsyncScratch ws(v.workspace_bytes(call.spec), options.workspace, options.stream, WHO);
  call.workspace = ws.get();
  v.run(call);
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
