// Public convnet API in CPU-only builds: pointers are host pointers and the
// CPU rungs (which need no workspace) run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/convnet/api_common.hpp"

namespace tessera {

void conv_forward(const float* x, const float* w, float* y, const ConvShape& shape, const ConvOptions& options) {
  using namespace conv_impl;
  const ConvSpec spec = checked_spec(shape);
  check_pointers(spec, x, w, y);
  const ConvVariant& v = variant_for(spec, options.variant);
  v.run({spec, x, w, y, nullptr, options.stream});
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
