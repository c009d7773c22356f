// Convolution step 0: the serial CPU reference (seed 000 "Conv": the
// definition, with zero "ghost" elements outside the input). Accumulated in
// double: the harness checks every rung against the same sum in double.
#include "families/convolution/cpu_rungs.hpp"

namespace tessera::convolution_impl::cpu {

void run_reference(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const auto rx = std::ptrdiff_t(s.rx()), ry = std::ptrdiff_t(s.ry());
  const auto w = std::ptrdiff_t(s.width), h = std::ptrdiff_t(s.height);
  for (std::ptrdiff_t y = 0; y < h; ++y)
    for (std::ptrdiff_t x = 0; x < w; ++x) {
      double acc = 0;
      for (std::ptrdiff_t ky = 0; ky < std::ptrdiff_t(s.mask_h); ++ky) {
        const std::ptrdiff_t yy = y - ry + ky;
        if (yy < 0 || yy >= h) continue;  // a ghost row: zero
        for (std::ptrdiff_t kx = 0; kx < std::ptrdiff_t(s.mask_w); ++kx) {
          const std::ptrdiff_t xx = x - rx + kx;
          if (xx < 0 || xx >= w) continue;
          acc += double(call.mask[ky * std::ptrdiff_t(s.mask_w) + kx]) * double(call.in[yy * std::ptrdiff_t(s.pitch) + xx]);
        }
      }
      call.out[y * std::ptrdiff_t(s.pitch) + x] = static_cast<float>(acc);
    }
}

}  // namespace tessera::convolution_impl::cpu
