// Public histogram API in CPU-only builds: pointers are host pointers and the
// CPU rungs run.
#include "api/histogram_common.hpp"

namespace tessera {

namespace {

void run_checked(const histogram_impl::HistogramSpec& spec, const void* in, std::uint32_t* counts,
                 std::uint32_t* out_of_range, const HistogramOptions& options, const char* who, const char* in_name) {
  histogram_impl::check_arguments(spec, in, counts, out_of_range, who, in_name);
  const auto& v = histogram_impl::resolve(spec, options.variant, who);
  std::uint32_t dropped = 0;
  v.run({spec, in, counts, &dropped, nullptr, options.stream});
  if (out_of_range != nullptr) *out_of_range = dropped;
}

}  // namespace

std::string histogram_default_variant(Dtype, int, std::size_t) { return "cpu_openmp"; }

void histogram(const std::uint8_t* d_bytes, std::size_t n, std::uint32_t* d_counts, const HistogramOptions& options) {
  run_checked(histogram_impl::byte_spec(n), d_bytes, d_counts, nullptr, options, "tessera::histogram", "d_bytes");
}

void histogram_even(const float* d_x, std::size_t n, int bins, float lo, float hi, std::uint32_t* d_counts,
                    std::uint32_t* out_of_range, const HistogramOptions& options) {
  run_checked(histogram_impl::even_spec(n, bins, lo, hi), d_x, d_counts, out_of_range, options,
              "tessera::histogram_even", "d_x");
}

}  // namespace tessera
