// Public histogram API in CPU-only builds: pointers are host pointers and the
// CPU rungs run (the entry points are in histogram_api_entries.cpp).
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/histogram/api_common.hpp"

namespace tessera {

void histogram_impl::run_checked(const HistogramSpec& spec, const void* in, std::uint32_t* counts,
                                 std::uint32_t* out_of_range, const HistogramOptions& options, const char* who,
                                 const char* in_name) {
  check_arguments(spec, in, counts, out_of_range, who, in_name);
  const auto& v = resolve(spec, options.variant, who);
  std::uint32_t dropped = 0;
  v.run({spec, in, counts, &dropped, nullptr, options.stream});
  if (out_of_range != nullptr) *out_of_range = dropped;
}

std::string histogram_default_variant(Dtype, int, std::size_t) { return "cpu_openmp"; }

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
