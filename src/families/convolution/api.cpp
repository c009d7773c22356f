// Public convolution API (CUDA builds): memory kinds, the mask's copy to the
// device, scratch, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/convolution/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using convolution_impl::ConvCall;
using convolution_impl::Request;

void run_request(const Request& r, const float* in, float* out, const float* mask, const ConvOptions& o) {
  const auto& v = *r.variant;
  api::require_memory(v.info.backend, in, "in", r.who, v.info.name);
  api::require_memory(v.info.backend, out, "out", r.who, v.info.name);
  const float* row = r.factors ? r.factors->row.data() : nullptr;
  const float* col = r.factors ? r.factors->col.data() : nullptr;
  if (v.prepare != nullptr) v.prepare(r.spec);
  if (v.info.backend == Backend::cpu) {  // in stream order, synchronously
    api::wait_for_stream(o.stream);
    v.run(ConvCall{r.spec, in, out, mask, mask, row, col, nullptr, o.stream});
    return;
  }
  // The mask and its factors, one host-to-device copy after the variant's workspace.
  const std::size_t ws = v.workspace_bytes(r.spec), at = convolution_impl::taps_offset(ws);
  const std::size_t taps = r.spec.taps();
  std::vector<float> staged(taps + r.spec.mask_w + r.spec.mask_h, 0.0f);
  std::copy(mask, mask + taps, staged.begin());
  if (r.factors) {
    std::copy(r.factors->row.begin(), r.factors->row.end(), staged.begin() + taps);
    std::copy(r.factors->col.begin(), r.factors->col.end(), staged.begin() + taps + r.spec.mask_w);
  }
  api::AsyncScratch scratch(at + staged.size() * sizeof(float), o.workspace, o.stream, r.who);
  auto* base = static_cast<unsigned char*>(scratch.get());
  auto* d_taps = reinterpret_cast<float*>(base + at);
  TESSERA_CUDA(cudaMemcpyAsync(d_taps, staged.data(), staged.size() * sizeof(float), cudaMemcpyHostToDevice, o.stream));
  v.run(ConvCall{r.spec, in, out, d_taps, mask, r.factors ? d_taps + taps : nullptr,
                 r.factors ? d_taps + taps + r.spec.mask_w : nullptr, ws > 0 ? base : nullptr, o.stream});
  // `staged` is pageable: the copy has read it before cudaMemcpyAsync returned.
}

}  // namespace

void conv1d(const float* in, std::size_t n, const float* mask, std::size_t mask_width, float* out,
            const ConvOptions& options) {
  const auto r = convolution_impl::make_request("tessera::conv1d", true, in, n, 1, mask, mask_width, 1, out, options);
  run_request(r, in, out, mask, options);
}

void conv2d(const float* in, std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
            std::size_t mask_h, float* out, const ConvOptions& options) {
  const auto r =
      convolution_impl::make_request("tessera::conv2d", false, in, width, height, mask, mask_w, mask_h, out, options);
  run_request(r, in, out, mask, options);
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
