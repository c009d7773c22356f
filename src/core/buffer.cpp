#include "tessera/core/buffer.hpp"

#include <fmt/format.h>

#include "tessera/core/cuda_check.hpp"

namespace tessera {

DeviceBytes::DeviceBytes(std::size_t bytes, const char* what) : bytes_(bytes) {
  if (bytes == 0) return;
  const cudaError_t err = cudaMalloc(&ptr_, bytes);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    std::size_t free_bytes = 0, total_bytes = 0;
    const bool have_info = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
    (void)cudaGetLastError();
    ptr_ = nullptr;
    bytes_ = 0;
    throw Error(fmt::format("cannot allocate {} ({} bytes) of device memory for {}: {}{}",
                            detail::format_bytes(bytes), bytes, what, cudaGetErrorString(err),
                            have_info ? fmt::format("; {} free of {}", detail::format_bytes(free_bytes),
                                                    detail::format_bytes(total_bytes))
                                      : std::string()));
  }
}

DeviceBytes::~DeviceBytes() { reset(); }

void DeviceBytes::reset() noexcept {
  if (ptr_ != nullptr) (void)cudaFree(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

void DeviceBytes::upload(const void* src, std::size_t bytes) {
  require(bytes <= bytes_, fmt::format("upload of {} bytes into a {}-byte device buffer", bytes, bytes_));
  if (bytes == 0) return;
  TESSERA_CUDA(cudaMemcpy(ptr_, src, bytes, cudaMemcpyHostToDevice));
  // From pageable memory, cudaMemcpy may return once the bytes are staged,
  // before the DMA has landed; a kernel then launched on a non-blocking
  // stream can run before the tail of the copy arrives (seen on the H100: an
  // in-place batched scan whose last row was overwritten by its own input).
  // Waiting on the legacy stream, where the copy runs, makes "uploaded" mean
  // "in device memory" for every stream.
  TESSERA_CUDA(cudaStreamSynchronize(nullptr));
}

void DeviceBytes::download(void* dst, std::size_t bytes) const {
  require(bytes <= bytes_, fmt::format("download of {} bytes from a {}-byte device buffer", bytes, bytes_));
  if (bytes > 0) TESSERA_CUDA(cudaMemcpy(dst, ptr_, bytes, cudaMemcpyDeviceToHost));
}

void DeviceBytes::fill_bytes(int value, stream_t stream) {
  if (bytes_ > 0) TESSERA_CUDA(cudaMemsetAsync(ptr_, value, bytes_, stream));
}

}  // namespace tessera
