// Public MRI-Q API in CPU-only builds: pointers are host pointers and the
// CPU rungs run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/mriq/api_common.hpp"

namespace tessera {

void mri_q(const float* kx, const float* ky, const float* kz, const float* phi_r, const float* phi_i,
           std::size_t num_k, const float* x, const float* y, const float* z, std::size_t num_x, float* q_r,
           float* q_i, const MriqOptions& options) {
  using namespace mriq_impl;
  MriqCall call = make_call(kx, ky, kz, phi_r, phi_i, num_k, x, y, z, num_x, q_r, q_i, options);
  check_pointers(call);
  const MriqVariant& v = resolve(call.spec, options.variant);
  if (num_x == 0) return;
  if (options.check_inputs)
    for (const Array& a : arrays_of(call).in) check_finite_host(a);
  v.run(call);
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
