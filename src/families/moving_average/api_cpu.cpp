// Public moving_average API in CPU-only builds: pointers are host pointers
// and the CPU rungs run.
#if !TESSERA_HAVE_CUDA
#include "families/moving_average/api_common.hpp"

namespace tessera {

template <class T>
void moving_average(const T* in, std::size_t n, T* out, std::span<const T> weights,
                    const MovingAverageOptions& options) {
  using namespace moving_average_impl;
  const MovingAverageSpec spec = checked_spec(in, n, out, weights, options);
  const MovingAverageVariant& v = resolve(spec, options.variant, false);
  require(v.info.backend == Backend::cpu,
          fmt::format("{}: variant '{}' runs on a GPU and this build has no CUDA", WHO, v.info.name));
  v.run({spec, in, out, weights.data(), nullptr, nullptr});
}

TESSERA_MOVING_AVERAGE_INSTANTIATE_CALL(float)
TESSERA_MOVING_AVERAGE_INSTANTIATE_CALL(double)

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
