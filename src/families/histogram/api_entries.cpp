// The public histogram entry points, the same in CUDA and CPU-only builds:
// each names its spec, then histogram_impl::run_checked (defined per build)
// validates and dispatches.
#include "families/histogram/api_common.hpp"

namespace tessera {

void histogram(const std::uint8_t* d_bytes, std::size_t n, std::uint32_t* d_counts, const HistogramOptions& options) {
  histogram_impl::run_checked(histogram_impl::byte_spec(n), d_bytes, d_counts, nullptr, options,
                              "tessera::histogram", "d_bytes");
}

void histogram_even(const float* d_x, std::size_t n, int bins, float lo, float hi, std::uint32_t* d_counts,
                    std::uint32_t* out_of_range, const HistogramOptions& options) {
  histogram_impl::run_checked(histogram_impl::even_spec(n, bins, lo, hi), d_x, d_counts, out_of_range, options,
                              "tessera::histogram_even", "d_x");
}

}  // namespace tessera
