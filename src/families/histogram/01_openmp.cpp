// Histogram step 1: OpenMP privatization (seed 000 "Histogram":
// privatization, here one private copy per CPU thread). Each thread counts a
// static contiguous chunk into its own histogram with plain increments; the
// copies are then summed bin by bin (in parallel over bins). Integer counts:
// the result does not depend on the thread count.
//
// Private copies cost threads x bins x 4 bytes; past PRIVATE_BYTES_LIMIT
// (many bins) fewer threads count, so memory stays bounded.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "families/histogram/bins.hpp"
#include "families/histogram/cpu_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::histogram_impl::cpu {

namespace {

constexpr std::size_t PRIVATE_BYTES_LIMIT = std::size_t(256) << 20;  // all private copies together

template <class T, class Rule>
void count(const T* x, std::size_t n, const Rule& rule, std::uint32_t* counts, std::uint32_t* out_of_range) {
  const auto bins = static_cast<std::size_t>(rule.bins);
  const std::size_t by_memory = std::max<std::size_t>(1, PRIVATE_BYTES_LIMIT / (bins * sizeof(std::uint32_t)));
  const int threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(omp_get_max_threads()), by_memory));
  std::vector<std::uint32_t> priv(static_cast<std::size_t>(threads) * bins, 0u);
  std::vector<std::uint32_t> dropped(static_cast<std::size_t>(threads), 0u);
  const auto len = static_cast<std::int64_t>(n);
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    std::uint32_t* mine = priv.data() + t * bins;
    std::uint32_t my_dropped = 0;
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < len; ++i) {
      const int b = rule.bin(x[i]);
      if (b >= 0) ++mine[b];
      else ++my_dropped;
    }
    dropped[t] = my_dropped;
  }
  const auto nbins = static_cast<std::int64_t>(bins);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t b = 0; b < nbins; ++b) {
    std::uint32_t sum = 0;
    for (int t = 0; t < threads; ++t) sum += priv[static_cast<std::size_t>(t) * bins + static_cast<std::size_t>(b)];
    counts[b] = sum;
  }
  std::uint32_t total_dropped = 0;
  for (std::uint32_t d : dropped) total_dropped += d;
  *out_of_range = total_dropped;
}

}  // namespace

void run_openmp(const HistogramCall& call) {
  dispatch_by_type(call, "cpu_openmp", [&](const auto* x, std::size_t n, const auto& rule) {
    count(x, n, rule, call.counts, call.out_of_range);
  });
}

}  // namespace tessera::histogram_impl::cpu
