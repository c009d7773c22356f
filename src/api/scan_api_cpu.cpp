// Public scan API in CPU-only builds: pointers are host pointers and the CPU
// rungs run.
#include <vector>

#include "api/scan_common.hpp"

namespace tessera {

namespace {

template <class T>
void scan_entry(const T* in, T* out, std::size_t n, Op op, bool exclusive, const ScanOptions& options) {
  const scan_impl::ScanSpec spec{dtype_of<T>(), op, options.accum, exclusive, n};
  const auto& v = scan_impl::resolve(spec, options.variant, in, out);
  if (n == 0) return;
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  v.run({spec, in, out, ws.data(), options.stream});
}

}  // namespace

std::string scan_default_variant(Dtype, Op, Accum, bool, std::size_t) { return "cpu_openmp"; }

template <class T>
void inclusive_scan(const T* d_in, T* d_out, std::size_t n, Op op, const ScanOptions& options) {
  scan_entry(d_in, d_out, n, op, false, options);
}

template <class T>
void exclusive_scan(const T* d_in, T* d_out, std::size_t n, Op op, const ScanOptions& options) {
  scan_entry(d_in, d_out, n, op, true, options);
}

#define TESSERA_INSTANTIATE(T)                                                            \
  template void inclusive_scan<T>(const T*, T*, std::size_t, Op, const ScanOptions&); \
  template void exclusive_scan<T>(const T*, T*, std::size_t, Op, const ScanOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::int32_t)
TESSERA_INSTANTIATE(std::int64_t)
TESSERA_INSTANTIATE(std::uint32_t)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
