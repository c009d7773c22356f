// Public transpose API in CPU-only builds: pointers are host pointers and the
// CPU rungs run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include <cstdint>

#include "families/transpose/api_common.hpp"

namespace tessera {

template <class T>
void transpose(const T* d_in, std::size_t rows, std::size_t cols, T* d_out, const TransposeOptions& options) {
  const auto r = transpose_impl::resolve_call(dtype_of<T>(), d_in, rows, cols, d_out, options);
  if (r.variant != nullptr) r.variant->run(r.call);
}

TESSERA_TRANSPOSE_INSTANTIATE_ALL()

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
