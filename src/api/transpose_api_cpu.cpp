// Public transpose API in CPU-only builds: pointers are host pointers and the
// CPU rungs run.
#include <cstdint>

#include "api/transpose_common.hpp"
#include "api/transpose_dispatch.hpp"

namespace tessera {

std::string transpose_default_variant(Dtype, std::size_t, std::size_t) {
  return std::string(transpose_impl::CPU_DEFAULT_VARIANT);
}

template <class T>
void transpose(const T* d_in, std::size_t rows, std::size_t cols, T* d_out, const TransposeOptions& options) {
  const transpose_impl::TransposeSpec spec = transpose_impl::make_spec(dtype_of<T>(), rows, cols, options);
  const auto& v = transpose_impl::resolve(spec, options.variant, d_in, d_out);
  if (rows == 0 || cols == 0) return;
  v.run({spec, d_in, d_out, options.stream});
}

#define TESSERA_INSTANTIATE(T) \
  template void transpose<T>(const T*, std::size_t, std::size_t, T*, const TransposeOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::int32_t)
TESSERA_INSTANTIATE(std::int64_t)
TESSERA_INSTANTIATE(std::uint32_t)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
