// Public transpose API (CUDA builds): validation, memory kinds, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/device_memory.hpp"
#include "families/transpose/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

// Both pointers must live where the variant runs.
void check_memory(const transpose_impl::TransposeVariant& v, const void* in, const void* out) {
  api::require_memory(v.info.backend, in, "d_in", "tessera::transpose", v.info.name);
  api::require_memory(v.info.backend, out, "d_out", "tessera::transpose", v.info.name);
}

}  // namespace

template <class T>
void transpose(const T* d_in, std::size_t rows, std::size_t cols, T* d_out, const TransposeOptions& options) {
  const auto r = transpose_impl::resolve_call(dtype_of<T>(), d_in, rows, cols, d_out, options);
  if (r.variant == nullptr) return;
  check_memory(*r.variant, d_in, d_out);
  if (r.variant->prepare != nullptr) r.variant->prepare();
  // CPU variants run synchronously, in stream order.
  if (r.variant->info.backend == Backend::cpu) api::wait_for_stream(options.stream);
  r.variant->run(r.call);
}

TESSERA_TRANSPOSE_INSTANTIATE_ALL()

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
