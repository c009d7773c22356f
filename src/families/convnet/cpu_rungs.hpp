// The CPU rungs of the convnet ladder (ladder.cpp lists them) and the
// harness's reference answer.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "families/convnet/contract.hpp"

namespace tessera::conv_impl::cpu {

// Step 0: serial, accumulating in double, rounded once to float.
void run_reference(const ConvCall& call);
// Step 1: OpenMP over the (image, filter) output planes, accumulating in float.
void run_openmp(const ConvCall& call);

// The harness's answer: y[i] exact to double rounding and abs_sum[i] =
// sum |w||x| over the terms of y[i] (the scale of its rounding error); both
// n*m*ho*wo long. OpenMP over the output planes.
void reference_with_bounds(const ConvSpec& s, const float* x, const float* w, double* y, double* abs_sum);

// Adds output plane (n, m) into acc (ho*wo values, row-major; abs too when
// not null: the sum of |w||x|). The loop order (channel, filter row, filter
// column, output row, output column) keeps one weight in a register and runs
// the innermost loop along a contiguous output row: it vectorises for stride
// 1. The valid output columns of each filter column are computed up front, so
// the inner loop has no padding test.
template <class Acc>
void accumulate_plane(const ConvSpec& s, const float* x, const float* w, std::size_t n, std::size_t m, Acc* acc,
                      Acc* abs) {
  const auto pad = static_cast<long long>(s.pad), stride = static_cast<long long>(s.stride);
  const auto H = static_cast<long long>(s.h), W = static_cast<long long>(s.w);
  for (std::size_t c = 0; c < s.c; ++c) {
    const float* xc = x + (n * s.c + c) * s.h * s.w;
    const float* wc = w + (m * s.c + c) * s.k * s.k;
    for (std::size_t kh = 0; kh < s.k; ++kh)
      for (std::size_t kw = 0; kw < s.k; ++kw) {
        const Acc wv = static_cast<Acc>(wc[kh * s.k + kw]);
        const long long off_w = static_cast<long long>(kw) - pad;  // input column of output column 0
        // Output columns whose input column wo*stride + off_w lies in [0, W).
        const long long lo = off_w >= 0 ? 0 : (-off_w + stride - 1) / stride;
        const long long hi = std::min<long long>(static_cast<long long>(s.wo), W - off_w <= 0 ? 0 : (W - off_w - 1) / stride + 1);
        for (std::size_t ho = 0; ho < s.ho; ++ho) {
          const long long hi_in = static_cast<long long>(ho) * stride + static_cast<long long>(kh) - pad;
          if (hi_in < 0 || hi_in >= H) continue;
          const float* xr = xc + hi_in * W + off_w;
          Acc* a = acc + ho * s.wo;
          if (stride == 1) {  // contiguous: the loop the compiler vectorises
            for (long long wo = lo; wo < hi; ++wo) a[wo] += wv * static_cast<Acc>(xr[wo]);
          } else {
            for (long long wo = lo; wo < hi; ++wo) a[wo] += wv * static_cast<Acc>(xr[wo * stride]);
          }
          if (abs != nullptr) {
            Acc* b = abs + ho * s.wo;
            for (long long wo = lo; wo < hi; ++wo) b[wo] += std::abs(wv) * std::abs(static_cast<Acc>(xr[wo * stride]));
          }
        }
      }
  }
}

}  // namespace tessera::conv_impl::cpu
