// Convolution step 1: OpenMP. Rows (2D) or 4,096-sample chunks (1D) are
// shared among the threads; each output accumulates in float (a row of taps
// in SIMD lanes), and the taps' bounds are clipped once per output instead of
// tested per tap (the window is cut to the part inside the image: the ghost
// elements contribute zero).
#include <algorithm>
#include <cstdint>

#include "families/convolution/cpu_rungs.hpp"

namespace tessera::convolution_impl::cpu {

namespace {
constexpr std::ptrdiff_t CHUNK_1D = 4096;  // outputs per task in 1D: enough work per task, many tasks
}  // namespace

void run_openmp(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const auto rx = std::ptrdiff_t(s.rx()), ry = std::ptrdiff_t(s.ry());
  const auto w = std::ptrdiff_t(s.width), h = std::ptrdiff_t(s.height), p = std::ptrdiff_t(s.pitch);
  const auto mw = std::ptrdiff_t(s.mask_w), mh = std::ptrdiff_t(s.mask_h);
  const std::ptrdiff_t chunks_per_row = h == 1 ? (w + CHUNK_1D - 1) / CHUNK_1D : 1;
  const std::ptrdiff_t chunk = h == 1 ? CHUNK_1D : w;
  const std::int64_t tasks = h * chunks_per_row;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t t = 0; t < tasks; ++t) {
    const std::ptrdiff_t y = t / chunks_per_row;
    const std::ptrdiff_t x0 = (t % chunks_per_row) * chunk, x1 = std::min(w, x0 + chunk);
    const std::ptrdiff_t ky0 = std::max<std::ptrdiff_t>(0, ry - y), ky1 = std::min(mh, h - y + ry);
    for (std::ptrdiff_t x = x0; x < x1; ++x) {
      const std::ptrdiff_t kx0 = std::max<std::ptrdiff_t>(0, rx - x), kx1 = std::min(mw, w - x + rx);
      float acc = 0;
      for (std::ptrdiff_t ky = ky0; ky < ky1; ++ky) {
        const float* row = call.in + (y - ry + ky) * p + (x - rx);
        const float* m = call.mask + ky * mw;
        // The taps of one row in SIMD lanes (the sum's order is the CPU rung's own).
#pragma omp simd reduction(+ : acc)
        for (std::ptrdiff_t kx = kx0; kx < kx1; ++kx) acc += m[kx] * row[kx];
      }
      call.out[y * p + x] = acc;
    }
  }
}

}  // namespace tessera::convolution_impl::cpu
