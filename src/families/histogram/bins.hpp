// How a value picks its bin, shared by the CPU rungs, every CUDA rung, the
// harness and the tests (host + device), so that all of them count exactly
// the same thing.
//
// Bytes (ByteBins): the byte value is the bin, 256 bins, every byte counted.
//
// Floats (EvenBins), `bins` equal-width bins over [lo, hi):
//   valid(x)  = lo <= x && x < hi          (false for NaN: out of range)
//   scale     = float(bins) / (hi - lo)     (float arithmetic, once, on the host)
//   bin(x)    = min(bins - 1, int((x - lo) * scale))   (float, round to nearest)
// This is cub::DeviceHistogram::HistogramEven's rule for float samples, plus
// the clamp: rounding can carry a value just below hi to (x - lo) * scale ==
// bins (e.g. lo = -1, hi = 1, 64 bins, x = 1 - 2^-24: x - lo rounds to 2);
// tessera counts it in the top bin, where CUB would index past the end (so the
// CUB variant declines such ranges: top_edge_overflows()). x - lo >= 0 for a
// valid x, so the truncation is a floor. Neither step can be contracted into
// an FMA (a subtraction, then a product), so host and device agree bitwise.
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/blocks/hd.hpp"

namespace tessera::histogram_impl {

struct ByteBins {
  static constexpr int bins = 256;
  TESSERA_HD int bin(std::uint8_t v) const { return v; }
};

struct EvenBins {
  float lo = 0.0f, hi = 1.0f, scale = 1.0f;
  int bins = 1;

  // Host: the scale as the rule defines it. Callers validate first
  // (contract.hpp: even_bins_problem() == "").
  static EvenBins make(int bins, float lo, float hi) {
    const float range = hi - lo;
    return {lo, hi, static_cast<float>(bins) / range, bins};
  }

  // The unclamped bin of a valid x (what CUB computes).
  TESSERA_HD int raw_bin(float x) const {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(__fmul_rn(__fsub_rn(x, lo), scale));
#else
    return static_cast<int>((x - lo) * scale);
#endif
  }

  // The bin of x, or -1 when x is outside [lo, hi) or NaN.
  TESSERA_HD int bin(float x) const {
    if (!(x >= lo && x < hi)) return -1;
    const int b = raw_bin(x);
    return b < bins ? b : bins - 1;
  }

  // Whether the largest float below hi rounds to bin `bins` (the only value
  // that can: (x - lo) * scale is monotonic in x).
  bool top_edge_overflows() const { return raw_bin(std::nextafter(hi, lo)) >= bins; }
};

}  // namespace tessera::histogram_impl
