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
// The same for a launch call's own result (cudaLaunchKernelEx).
void check_launch(cudaError_t launched, const char* kernel, dim3 grid, dim3 block, std::size_t smem,
                  cudaStream_t stream, std::size_t n);

template <class... KernelArgs, class... Args>
void launch(const char* name, void (*kernel)(KernelArgs...), dim3 grid, dim3 block, std::size_t smem,
            cudaStream_t stream, std::size_t n, Args&&... args) {
  kernel<<<grid, block, smem, stream>>>(std::forward<Args>(args)...);
  check_launch(name, grid, block, smem, stream, n);
}

// A cooperative launch: every block of the grid is resident at once, or the
// launch fails (cudaErrorCooperativeLaunchTooLarge) instead of starting
// blocks that wait on blocks that cannot start. For kernels whose blocks
// each own a fixed share of the work and wait on each other's shares.
// Valid in stream capture (a cooperative kernel node).
template <class... KernelArgs, class... Args>
void launch_cooperative(const char* name, void (*kernel)(KernelArgs...), dim3 grid, dim3 block, std::size_t smem,
                        cudaStream_t stream, std::size_t n, Args&&... args) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  check_launch(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), name, grid, block, smem, stream, n);
}

// ceil(a / b) for sizes.
constexpr std::size_t div_up(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace tessera::detail
