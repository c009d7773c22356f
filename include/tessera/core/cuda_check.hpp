// Checked CUDA runtime calls. Every call in tessera goes through
// TESSERA_CUDA(...), so a failure names the call, the file and the line.
// Only available in CUDA builds (TESSERA_HAVE_CUDA).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "tessera/core/error.hpp"

namespace tessera::detail {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line,
                                   const std::string& context = {});

inline void check_cuda(cudaError_t err, const char* call, const char* file, int line) {
  if (err != cudaSuccess) throw_cuda_error(err, call, file, line);
}

// Whether a usable CUDA device is present (cached after the first query).
bool cuda_device_available() noexcept;

// "12.3 GiB" style formatting for error messages.
std::string format_bytes(std::size_t bytes);

}  // namespace tessera::detail

#define TESSERA_CUDA(call) ::tessera::detail::check_cuda((call), #call, __FILE__, __LINE__)
