// The public scan templates (include/tessera/scan.hpp) for the five element
// types, over the build's scan_entry (CUDA or CPU-only).
#include <cstdint>

#include "families/scan/api_common.hpp"

namespace tessera {

template <class T>
void inclusive_scan(const T* d_in, T* d_out, std::size_t n, Op op, const ScanOptions& options) {
  scan_impl::scan_entry(dtype_of<T>(), d_in, d_out, n, op, false, options);
}

template <class T>
void exclusive_scan(const T* d_in, T* d_out, std::size_t n, Op op, const ScanOptions& options) {
  scan_impl::scan_entry(dtype_of<T>(), d_in, d_out, n, op, true, options);
}

#define TESSERA_INSTANTIATE(T)                                                        \
  template void inclusive_scan<T>(const T*, T*, std::size_t, Op, const ScanOptions&); \
  template void exclusive_scan<T>(const T*, T*, std::size_t, Op, const ScanOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::int32_t)
TESSERA_INSTANTIATE(std::int64_t)
TESSERA_INSTANTIATE(std::uint32_t)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
