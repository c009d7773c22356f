// Histogram step 0: the serial CPU reference every other rung is checked
// against (seed 000 "Histogram": the sequential loop, one counter per bin).
#include <algorithm>
#include <cstdint>

#include "common/histogram_bins.hpp"
#include "cpu/histogram/cpu_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::histogram_impl::cpu {

namespace {

template <class T, class Rule>
void count(const T* x, std::size_t n, const Rule& rule, std::uint32_t* counts, std::uint32_t* out_of_range) {
  std::fill(counts, counts + rule.bins, 0u);
  std::uint32_t dropped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int b = rule.bin(x[i]);
    if (b >= 0) ++counts[b];
    else ++dropped;
  }
  *out_of_range = dropped;
}

}  // namespace

void run_reference(const HistogramCall& call) {
  const HistogramSpec& s = call.spec;
  switch (s.dtype) {
    case Dtype::u8:
      count(static_cast<const std::uint8_t*>(call.in), s.n, ByteBins{}, call.counts, call.out_of_range);
      break;
    case Dtype::f32:
      count(static_cast<const float*>(call.in), s.n, EvenBins::make(s.bins, s.lo, s.hi), call.counts,
            call.out_of_range);
      break;
    default: throw Error("histogram: cpu_reference supports uint8 and float input only");
  }
}

}  // namespace tessera::histogram_impl::cpu
