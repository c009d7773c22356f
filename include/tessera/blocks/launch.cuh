// Checked kernel launches. Every launch in tessera goes through launch(): a
// failure throws tessera::Error naming the kernel, its grid, block and shared
// memory, plus the caller's context (typically the problem size). With the
// environment variable TESSERA_SYNC_LAUNCHES=1 each launch is also
// synchronised and logged to stderr (a debugging aid; never while timing).
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "tessera/core/cuda_check.hpp"

namespace tessera::detail {

// Checks cudaGetLastError() after a launch (and synchronises in debug mode).
void check_launch(const char* kernel, dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                  std::size_t n);

template <class... KernelArgs, class... Args>
void launch(const char* name, void (*kernel)(KernelArgs...), dim3 grid, dim3 block, std::size_t smem,
            cudaStream_t stream, std::size_t n, Args&&... args) {
  kernel<<<grid, block, smem, stream>>>(std::forward<Args>(args)...);
  check_launch(name, grid, block, smem, stream, n);
}

// ceil(a / b) for sizes.
constexpr std::size_t div_up(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace tessera::detail
