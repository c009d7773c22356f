// Convnet step 1: OpenMP over the n*m output planes (the seed's two outer
// "parallel for" loops), accumulating in float in the output plane itself;
// the inner loop runs along an output row and vectorises for stride 1.
#include "families/convnet/cpu_rungs.hpp"

namespace tessera::conv_impl::cpu {

void run_openmp(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const auto planes = static_cast<long long>(s.n * s.m);
#pragma omp parallel for schedule(dynamic)
  for (long long plane = 0; plane < planes; ++plane) {
    float* out = call.y + static_cast<std::size_t>(plane) * s.pixels();
    std::fill(out, out + s.pixels(), 0.0f);
    accumulate_plane<float>(s, call.x, call.w, static_cast<std::size_t>(plane) / s.m,
                            static_cast<std::size_t>(plane) % s.m, out, nullptr);
  }
}

}  // namespace tessera::conv_impl::cpu
