// Convnet step 0: the serial CPU reference (seed 000 "ConvNet": the forward
// path's seven nested loops, in double), and the harness's answer with the
// error scale of every element.
#include <vector>

#include "families/convnet/cpu_rungs.hpp"

namespace tessera::conv_impl::cpu {

void run_reference(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  std::vector<double> acc(s.pixels());
  for (std::size_t n = 0; n < s.n; ++n)
    for (std::size_t m = 0; m < s.m; ++m) {
      std::fill(acc.begin(), acc.end(), 0.0);
      accumulate_plane<double>(s, call.x, call.w, n, m, acc.data(), nullptr);
      float* out = call.y + (n * s.m + m) * s.pixels();
      for (std::size_t p = 0; p < s.pixels(); ++p) out[p] = static_cast<float>(acc[p]);
    }
}

void reference_with_bounds(const ConvSpec& s, const float* x, const float* w, double* y, double* abs_sum) {
  const auto planes = static_cast<long long>(s.n * s.m);
#pragma omp parallel for schedule(dynamic)
  for (long long plane = 0; plane < planes; ++plane) {
    const std::size_t n = static_cast<std::size_t>(plane) / s.m, m = static_cast<std::size_t>(plane) % s.m;
    double* a = y + static_cast<std::size_t>(plane) * s.pixels();
    double* b = abs_sum + static_cast<std::size_t>(plane) * s.pixels();
    std::fill(a, a + s.pixels(), 0.0);
    std::fill(b, b + s.pixels(), 0.0);
    accumulate_plane<double>(s, x, w, n, m, a, b);
  }
}

}  // namespace tessera::conv_impl::cpu
