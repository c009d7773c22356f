// The public scan templates (include/tessera/scan.hpp) for the five element
// types, over the build's scan_entry (api.cpp with CUDA, api_cpu.cpp
// without), and the default variant from policy.hpp.
#include <algorithm>
#include <cstdint>

#include "families/scan/api_common.hpp"

namespace tessera {

std::string scan_default_variant(Dtype type, Op op, Accum accum, bool exclusive, std::size_t n) {
  return std::string(scan_impl::policy_pick({type, op, accum, exclusive, n}));
}

template <class T>
void inclusive_scan(const T* d_in, std::size_t n, T* d_out, const ScanOptions& options) {
  scan_impl::scan_entry(dtype_of<T>(), d_in, n, d_out, false, options);
}

template <class T>
void exclusive_scan(const T* d_in, std::size_t n, T* d_out, const ScanOptions& options) {
  scan_impl::scan_entry(dtype_of<T>(), d_in, n, d_out, true, options);
}

// Enough for both directions (CUB's temporary storage differs between them).
template <class T>
std::size_t scan_workspace_bytes(std::size_t n, const ScanOptions& options) {
  std::size_t bytes = 0;
  for (bool exclusive : {false, true}) {
    const auto spec = scan_impl::spec_of(dtype_of<T>(), n, exclusive, options);
    const auto& v = scan_impl::resolve(spec, options.variant, scan_impl::WORKSPACE_QUERY);
    bytes = std::max(bytes, v.workspace_bytes(spec));
  }
  return bytes;
}

#define TESSERA_INSTANTIATE(T)                                                         \
  template void inclusive_scan<T>(const T*, std::size_t, T*, const ScanOptions&);      \
  template void exclusive_scan<T>(const T*, std::size_t, T*, const ScanOptions&);      \
  template std::size_t scan_workspace_bytes<T>(std::size_t, const ScanOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::int32_t)
TESSERA_INSTANTIATE(std::int64_t)
TESSERA_INSTANTIATE(std::uint32_t)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
