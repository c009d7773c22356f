// Public histogram API in CPU-only builds: pointers are host pointers and the
// CPU rungs run (the entry points are in api_entries.cpp).
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/histogram/api_common.hpp"

namespace tessera {

std::size_t histogram_impl::call_workspace_bytes(const HistogramVariant&, const HistogramSpec&) {
  return 0;  // the CPU rungs need no scratch
}

void histogram_impl::run_checked(const Request& r, const void* in, std::uint32_t* counts,
                                 std::uint32_t* out_of_range) {
  check_arguments(r.spec, in, counts, out_of_range, r.who, r.in_name);
  const HistogramVariant& v = resolve(r.spec, r.variant, r.who);
  std::uint32_t dropped = 0;
  v.run({r.spec, in, counts, &dropped, nullptr, r.stream});
  if (out_of_range != nullptr) *out_of_range = dropped;
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
