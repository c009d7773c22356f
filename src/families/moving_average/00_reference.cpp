// Moving average step 0: the serial CPU reference (seed 004 "Moyenne
// glissante": the definition, for any odd w and any weights). Double
// accumulation, one rounding per output.
#include "families/moving_average/cpu_rungs.hpp"

namespace tessera::moving_average_impl::cpu {

void run_reference(const MovingAverageCall& call) {
  const MovingAverageSpec& s = call.spec;
  with_type(s.dtype, [&]<class T>() {
    const T* x = static_cast<const T*>(call.in);
    const T* wt = static_cast<const T*>(call.weights);
    T* out = static_cast<T*>(call.out);
    const auto h = static_cast<std::int64_t>(s.half());
    for (std::size_t i = 0; i < s.n; ++i) {
      double acc = 0;
      for (std::size_t j = 0; j < s.w; ++j)
        acc += double(wt[j]) * double(sample(x, s.n, s.edge, std::int64_t(i) + std::int64_t(j) - h));
      out[i] = static_cast<T>(acc);
    }
  });
}

}  // namespace tessera::moving_average_impl::cpu
