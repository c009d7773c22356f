// The public API's choice of variant (policy.hpp's rules) and its workspace
// query, the same in CUDA and CPU-only builds.
#include "core/gpu_present.hpp"
#include "families/moving_average/api_common.hpp"

namespace tessera {

std::string moving_average_default_variant(Dtype t, std::size_t, std::size_t w, bool uniform) {
  return std::string(moving_average_impl::policy::pick(api::gpu_present(), t == Dtype::f32, w, uniform));
}

template <class T>
std::size_t moving_average_workspace_bytes(std::size_t n, std::size_t w, bool uniform,
                                           const MovingAverageOptions& options) {
  using namespace moving_average_impl;
  check_window(n, w);
  const MovingAverageSpec spec{dtype_of<T>(), n, w, options.edge, uniform};
  const MovingAverageVariant& v = resolve(spec, options.variant, api::gpu_present());
  if (v.info.backend == Backend::cpu) return 0;
  return weights_slot(w, sizeof(T)) + v.workspace_bytes(spec);
}

template std::size_t moving_average_workspace_bytes<float>(std::size_t, std::size_t, bool, const MovingAverageOptions&);
template std::size_t moving_average_workspace_bytes<double>(std::size_t, std::size_t, bool,
                                                            const MovingAverageOptions&);

}  // namespace tessera
