// Public scan API (CUDA builds): validation, workspace, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/scan/api_common.hpp"

namespace tessera {

using api::Memory;

void scan_impl::scan_entry(Dtype dtype, const void* in, void* out, std::size_t n, Op op, bool exclusive,
                           const ScanOptions& options) {
  const scan_impl::ScanSpec spec{dtype, op, options.accum, exclusive, n};
  const auto& v = scan_impl::resolve(spec, options.variant, in, out);
  if (n == 0) return;
  const char* who = scan_impl::api_name(exclusive);
  const Memory want = v.info.backend == Backend::cpu ? Memory::host : Memory::device;
  const char* where = want == Memory::host ? "host" : "device";
  require(api::memory_of(in) == want,
          fmt::format("{}: d_in must point to {} memory for variant '{}'", who, where, v.info.name));
  require(api::memory_of(out) == want,
          fmt::format("{}: d_out must point to {} memory for variant '{}'", who, where, v.info.name));
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    TESSERA_CUDA(cudaStreamSynchronize(options.stream));  // CPU variants run in stream order
    v.run({spec, in, out, ws.data(), options.stream});
    return;
  }
  api::AsyncScratch ws(ws_bytes, options.stream, who);
  v.run({spec, in, out, ws.get(), options.stream});
}

std::string scan_default_variant(Dtype type, Op, Accum accum, bool, std::size_t) {
  // The single-pass decoupled look-back scan: one pass over memory, every
  // type and accumulator (docs/scan.md). For 4-byte elements with the native
  // accumulator (sum, min, max: all commutative), the warp-specialised
  // persistent look-back with bulk tile loads: 92.1% of copy = 1.13x
  // cub::DeviceScan on the H100 (float sum, 2^28), against 84.0% for
  // lookback_early_publish in the same run
  // (docs/results/scan-bulk-h100-2026-11-23.txt). Below sm_90 it runs
  // lookback_early_publish's kernel.
  const bool four_byte = type == Dtype::f32 || type == Dtype::i32 || type == Dtype::u32;
  return four_byte && accum == Accum::native ? "lookback_bulk" : "lookback";
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
