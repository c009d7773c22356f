// Histogram step 0: the serial CPU reference every other rung is checked
// against (seed 000 "Histogram": the sequential loop, one counter per bin).
#include <algorithm>
#include <cstdint>

#include "families/histogram/bins.hpp"
#include "families/histogram/cpu_rungs.hpp"
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
  dispatch_by_type(call, "cpu_reference", [&](const auto* x, std::size_t n, const auto& rule) {
    count(x, n, rule, call.counts, call.out_of_range);
  });
}

}  // namespace tessera::histogram_impl::cpu
