// Public transpose API (CUDA builds): validation, memory kinds, dispatch.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "api/transpose_common.hpp"
#include "api/transpose_dispatch.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

// Whether the CUDA runtime knows `p` as device (or managed) memory.
bool device_memory(const void* p) {
  cudaPointerAttributes attr{};
  TESSERA_CUDA(cudaPointerGetAttributes(&attr, p));
  return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
}

void check_memory(const transpose_impl::TransposeVariant& v, const void* in, const void* out) {
  const bool want_device = v.info.backend == Backend::cuda;
  const char* where = want_device ? "device" : "host";
  require(device_memory(in) == want_device,
          fmt::format("tessera::transpose: d_in must point to {} memory for variant '{}'", where, v.info.name));
  require(device_memory(out) == want_device,
          fmt::format("tessera::transpose: d_out must point to {} memory for variant '{}'", where, v.info.name));
}

}  // namespace

std::string transpose_default_variant(Dtype, std::size_t, std::size_t) {
  return std::string(transpose_impl::GPU_DEFAULT_VARIANT);
}

template <class T>
void transpose(const T* d_in, std::size_t rows, std::size_t cols, T* d_out, const TransposeOptions& options) {
  const transpose_impl::TransposeSpec spec = transpose_impl::make_spec(dtype_of<T>(), rows, cols, options);
  const auto& v = transpose_impl::resolve(spec, options.variant, d_in, d_out);
  if (rows == 0 || cols == 0) return;
  check_memory(v, d_in, d_out);
  if (v.prepare != nullptr) v.prepare();
  if (v.info.backend == Backend::cpu) {
    TESSERA_CUDA(cudaStreamSynchronize(options.stream));  // CPU variants run in stream order
    v.run({spec, d_in, d_out, options.stream});
    return;
  }
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
