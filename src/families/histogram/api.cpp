// Public histogram API (CUDA builds): validation, memory kinds, scratch,
// dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/histogram/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using api::Memory;
using api::memory_of;
using histogram_impl::HistogramSpec;
using histogram_impl::HistogramVariant;
using histogram_impl::Request;

// Scratch of a GPU run: the variant's workspace at offset 0, then (when
// out_of_range is not a device pointer) the out-of-range word, on a
// 256-byte boundary as a fresh allocation would be.
constexpr std::size_t OUT_OF_RANGE_ALIGN = 256;

std::size_t out_of_range_offset(std::size_t variant_bytes) {
  return (variant_bytes + OUT_OF_RANGE_ALIGN - 1) / OUT_OF_RANGE_ALIGN * OUT_OF_RANGE_ALIGN;
}

void check_memory(const HistogramVariant& v, const Request& r, const void* in, const std::uint32_t* counts) {
  if (r.spec.n > 0) api::require_memory(v.info.backend, in, r.in_name, r.who, v.info.name);
  api::require_memory(v.info.backend, counts, "d_counts", r.who, v.info.name);
}

void run_cpu_variant(const HistogramVariant& v, const Request& r, const void* in, std::uint32_t* counts,
                     std::uint32_t* out_of_range) {
  check_memory(v, r, in, counts);
  if (out_of_range != nullptr) api::require_memory(v.info.backend, out_of_range, "out_of_range", r.who, v.info.name);
  std::vector<unsigned char> ws(v.workspace_bytes(r.spec));
  std::uint32_t dropped = 0;
  api::wait_for_stream(r.stream);
  v.run({r.spec, in, counts, &dropped, ws.data(), r.stream});
  if (out_of_range != nullptr) *out_of_range = dropped;
}

}  // namespace

std::size_t histogram_impl::call_workspace_bytes(const HistogramVariant& v, const HistogramSpec& spec) {
  if (v.info.backend == Backend::cpu) return 0;  // host scratch, if any, is the call's own
  return out_of_range_offset(v.workspace_bytes(spec)) + sizeof(std::uint32_t);
}

void histogram_impl::run_checked(const Request& r, const void* in, std::uint32_t* counts,
                                 std::uint32_t* out_of_range) {
  check_arguments(r.spec, in, counts, out_of_range, r.who, r.in_name);
  const HistogramVariant& v = resolve(r.spec, r.variant, r.who);
  if (v.info.backend == Backend::cpu) {
    run_cpu_variant(v, r, in, counts, out_of_range);
    return;
  }
  check_memory(v, r, in, counts);
  const bool oor_on_device = out_of_range != nullptr && memory_of(out_of_range) == Memory::device;
  const std::size_t ws_bytes = v.workspace_bytes(r.spec);
  const std::size_t oor_at = out_of_range_offset(ws_bytes);
  api::AsyncScratch scratch(oor_on_device ? ws_bytes : oor_at + sizeof(std::uint32_t), r.workspace, r.stream, r.who);
  auto* base = static_cast<unsigned char*>(scratch.get());
  std::uint32_t* dev_oor = oor_on_device ? out_of_range : reinterpret_cast<std::uint32_t*>(base + oor_at);
  v.run({r.spec, in, counts, dev_oor, ws_bytes > 0 ? base : nullptr, r.stream});
  if (out_of_range != nullptr && !oor_on_device) {
    std::uint32_t dropped = 0;
    TESSERA_CUDA(cudaMemcpyAsync(&dropped, dev_oor, sizeof dropped, cudaMemcpyDeviceToHost, r.stream));
    TESSERA_CUDA(cudaStreamSynchronize(r.stream));
    *out_of_range = dropped;
  }
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
