// The public reduce API's body in CUDA builds: validation, memory kinds,
// workspace, dispatch. api_cpu.cpp serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/reduce/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::reduce_impl {

namespace {

using api::AsyncScratch;

// tessera::reduce's device result sits after the variant's workspace, in a
// slot of its own (256-byte aligned, like every part of a workspace).
constexpr std::size_t RESULT_SLOT = 256;

std::size_t result_offset(std::size_t variant_bytes) {
  return (variant_bytes + RESULT_SLOT - 1) / RESULT_SLOT * RESULT_SLOT;
}

std::size_t result_bytes(Dtype dtype) { return dtype == Dtype::f32 ? sizeof(float) : 8; }

void check_memory(const ReduceVariant& v, const void* in, std::size_t n, const void* out, const char* who) {
  if (n > 0) api::require_memory(v.info.backend, in, "d_in", who, v.info.name);
  api::require_memory(v.info.backend, out, "d_out", who, v.info.name);
}

}  // namespace

void reduce_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool out_on_host, const ReduceOptions& o) {
  const char* who = api_name(out_on_host);
  const ReduceSpec spec = spec_of(dtype, n, o);
  const ReduceVariant& v = resolve(spec, o.variant, in, out, who);
  api::require_runnable(v.info.backend, who, v.info.name);
  if (v.info.backend == Backend::cpu || !out_on_host) check_memory(v, in, n, out, who);
  else if (n > 0) api::require_memory(v.info.backend, in, "d_in", who, v.info.name);
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    api::wait_for_stream(o.stream);
    v.run({spec, in, out, ws.data(), o.stream});
    return;
  }
  if (!out_on_host) {
    AsyncScratch ws(ws_bytes, o.workspace, o.stream, who);
    v.run({spec, in, out, ws.get(), o.stream});
    return;
  }
  // tessera::reduce: the result goes through a device slot to the host.
  {
    const std::size_t at = result_offset(ws_bytes);
    AsyncScratch ws(at + RESULT_SLOT, o.workspace, o.stream, who);
    void* d_result = static_cast<unsigned char*>(ws.get()) + at;
    v.run({spec, in, d_result, ws.get(), o.stream});
    TESSERA_CUDA(cudaMemcpyAsync(out, d_result, result_bytes(dtype), cudaMemcpyDeviceToHost, o.stream));
  }
  TESSERA_CUDA(cudaStreamSynchronize(o.stream));
}

std::size_t reduce_entry_workspace(Dtype dtype, std::size_t n, const ReduceOptions& o) {
  const ReduceSpec spec = spec_of(dtype, n, o);
  const ReduceVariant& v = resolve(spec, o.variant, WORKSPACE_QUERY);
  const std::size_t bytes = v.workspace_bytes(spec);
  return v.info.backend == Backend::cpu ? bytes : result_offset(bytes) + RESULT_SLOT;
}

}  // namespace tessera::reduce_impl

#endif  // TESSERA_HAVE_CUDA
