// Public convolution API in CPU-only builds: pointers are host pointers and
// the CPU rungs run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/convolution/api_common.hpp"

namespace tessera {

namespace {

void run_request(const convolution_impl::Request& r, const float* in, float* out, const float* mask) {
  const float* row = r.factors ? r.factors->row.data() : nullptr;
  const float* col = r.factors ? r.factors->col.data() : nullptr;
  r.variant->run(convolution_impl::ConvCall{r.spec, in, out, mask, mask, row, col, nullptr, nullptr});
}

}  // namespace

void conv1d(const float* in, std::size_t n, const float* mask, std::size_t mask_width, float* out,
            const ConvOptions& options) {
  run_request(convolution_impl::make_request("tessera::conv1d", true, in, n, 1, mask, mask_width, 1, out, options), in,
              out, mask);
}

void conv2d(const float* in, std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
            std::size_t mask_h, float* out, const ConvOptions& options) {
  run_request(
      convolution_impl::make_request("tessera::conv2d", false, in, width, height, mask, mask_w, mask_h, out, options),
      in, out, mask);
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
