// Whether this process has a GPU to run on. A CUDA build may run on a
// machine without a driver or a device: there every pointer is a host
// pointer, a default call takes the CPU policy and a GPU variant is refused
// by name. CPU-only builds have none.
#pragma once

#if TESSERA_HAVE_CUDA
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::api {

inline bool gpu_present() noexcept {
#if TESSERA_HAVE_CUDA
  return detail::cuda_device_available();
#else
  return false;
#endif
}

}  // namespace tessera::api
