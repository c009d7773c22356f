#include "tessera/core/cuda_check.hpp"

#include <fmt/format.h>

namespace tessera::detail {

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line, const std::string& context) {
  // Clear a sticky-free error so later calls are not poisoned by this one.
  (void)cudaGetLastError();
  throw Error(fmt::format("CUDA error in {} at {}:{}: {} ({}){}{}", call, file, line, cudaGetErrorString(err),
                          cudaGetErrorName(err), context.empty() ? "" : "; ", context));
}

bool cuda_device_available() noexcept {
  static const bool available = [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return count > 0;
  }();
  return available;
}

std::string format_bytes(std::size_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.2f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.2f} MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return fmt::format("{:.2f} KiB", b / 1024.0);
  return fmt::format("{} B", bytes);
}

}  // namespace tessera::detail
