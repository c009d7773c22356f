// The public histogram entry points and their workspace queries, the same in
// CUDA and CPU-only builds: each names its spec, then
// histogram_impl::run_checked (defined per build) validates and dispatches.
#include "families/histogram/api_common.hpp"

namespace tessera {

namespace {

using histogram_impl::Request;

Request byte_request(std::size_t n, const HistogramOptions& o, const char* who) {
  return {histogram_impl::byte_spec(n), who, "d_bytes", o.variant, o.stream, o.workspace};
}

Request even_request(std::size_t n, const HistogramEvenOptions& o, const char* who) {
  return {histogram_impl::even_spec(n, o), who, "d_x", o.variant, o.stream, o.workspace};
}

std::size_t workspace_of(const Request& r) {
  histogram_impl::check_spec(r.spec, r.who);
  return histogram_impl::call_workspace_bytes(histogram_impl::resolve(r.spec, r.variant, r.who), r.spec);
}

}  // namespace

void histogram(const std::uint8_t* d_bytes, std::size_t n, std::uint32_t* d_counts, const HistogramOptions& options) {
  histogram_impl::run_checked(byte_request(n, options, "tessera::histogram"), d_bytes, d_counts, nullptr);
}

void histogram_even(const float* d_x, std::size_t n, std::uint32_t* d_counts, std::uint32_t* out_of_range,
                    const HistogramEvenOptions& options) {
  histogram_impl::run_checked(even_request(n, options, "tessera::histogram_even"), d_x, d_counts, out_of_range);
}

std::size_t histogram_workspace_bytes(std::size_t n, const HistogramOptions& options) {
  return workspace_of(byte_request(n, options, "tessera::histogram_workspace_bytes"));
}

std::size_t histogram_even_workspace_bytes(std::size_t n, const HistogramEvenOptions& options) {
  return workspace_of(even_request(n, options, "tessera::histogram_even_workspace_bytes"));
}

}  // namespace tessera
