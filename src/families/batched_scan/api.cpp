// Public batched_scan API (CUDA builds): validation, workspace, and the
// default policy's pick (policy.hpp).
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/batched_scan/api_common.hpp"
#include "families/batched_scan/policy.hpp"

namespace tessera {

namespace {

void check_memory(const batched_scan_impl::ScanVariant& v, const float* in, const float* out) {
  api::require_memory(v.info.backend, in, "in", "tessera::batched_scan", v.info.name);
  api::require_memory(v.info.backend, out, "out", "tessera::batched_scan", v.info.name);
}

}  // namespace

std::string batched_scan_default_variant(std::size_t, std::size_t len, Accum accum, ScanDirection) {
  if (!api::gpu_present()) return "cpu_openmp";  // host memory, as in CPU-only builds
  return std::string(batched_scan_impl::pick_rule(len, accum).variant);
}

void batched_scan(const float* in, std::size_t rows, std::size_t len, float* out, const BatchedScanOptions& options) {
  batched_scan_impl::ScanSpec spec;
  const auto& v = batched_scan_impl::resolve(in, rows, len, out, options, spec);
  if (rows == 0 || len == 0) return;
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  check_memory(v, in, out);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> owned;
    void* ws = batched_scan_impl::host_scratch(ws_bytes, options.workspace, owned);
    api::wait_for_stream(options.stream);
    v.run({spec, in, out, ws, options.stream});
    return;
  }
  api::AsyncScratch ws(ws_bytes, options.workspace, options.stream, "tessera::batched_scan");
  v.run({spec, in, out, ws.get(), options.stream});
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
