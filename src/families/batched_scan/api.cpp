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

using api::Memory;

void check_memory(const batched_scan_impl::ScanVariant& v, const float* in, const float* out) {
  const Memory want = v.info.backend == Backend::cpu ? Memory::host : Memory::device;
  const char* where = want == Memory::host ? "host" : "device";
  require(api::memory_of(in) == want,
          fmt::format("tessera::batched_scan: in must point to {} memory for variant '{}'", where, v.info.name));
  require(api::memory_of(out) == want,
          fmt::format("tessera::batched_scan: out must point to {} memory for variant '{}'", where, v.info.name));
}

}  // namespace

std::string batched_scan_default_variant(std::size_t, std::size_t len, Accum accum, ScanDirection) {
  return std::string(batched_scan_impl::pick_rule(len, accum).variant);
}

void batched_scan(const float* in, std::size_t rows, std::size_t len, float* out, const BatchedScanOptions& options) {
  batched_scan_impl::ScanSpec spec;
  const auto& v = batched_scan_impl::resolve(in, rows, len, out, options, spec);
  if (rows == 0 || len == 0) return;
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  const bool have_gpu = detail::cuda_device_available();
  if (v.info.backend == Backend::cpu) {
    // Host data. Without a device (a CUDA build on a machine with no GPU)
    // there is no stream to order with and every pointer is a host pointer.
    std::vector<unsigned char> owned;
    void* ws = batched_scan_impl::host_scratch(ws_bytes, options.workspace, owned);
    if (have_gpu) {
      check_memory(v, in, out);
      TESSERA_CUDA(cudaStreamSynchronize(options.stream));  // CPU variants run in stream order
    }
    v.run({spec, in, out, ws, options.stream});
    return;
  }
  require(have_gpu, fmt::format("tessera::batched_scan: variant '{}' needs a CUDA device and none is available "
                                "(variant = \"cpu_openmp\" scans host memory)",
                                v.info.name));
  check_memory(v, in, out);
  api::AsyncScratch ws(ws_bytes, options.workspace, options.stream, "tessera::batched_scan");
  v.run({spec, in, out, ws.get(), options.stream});
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
