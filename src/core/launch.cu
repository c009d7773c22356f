// check_launch: the error check behind every detail::launch(). A failed
// launch throws tessera::Error naming the kernel, its configuration and the
// problem size. With TESSERA_SYNC_LAUNCHES=1 every launch is also synchronised
// (so an asynchronous fault is reported by the kernel that caused it) and
// logged to stderr; a debugging aid, never for timing or graph capture.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tessera/blocks/launch.cuh"
#include "tessera/core/error.hpp"

namespace tessera::detail {

namespace {

bool sync_launches_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("TESSERA_SYNC_LAUNCHES");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return enabled;
}

std::string describe(const char* kernel, dim3 grid, dim3 block, std::size_t smem, std::size_t n) {
  return std::string(kernel) + " <<<grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
         std::to_string(grid.z) + "), block (" + std::to_string(block.x) + ", " + std::to_string(block.y) + ", " +
         std::to_string(block.z) + "), smem " + std::to_string(smem) + " B>>> n = " + std::to_string(n);
}

[[noreturn]] void fail(const char* what, cudaError_t err, const char* kernel, dim3 grid, dim3 block,
                       std::size_t smem, std::size_t n) {
  throw Error(std::string("CUDA ") + what + " failed: " + describe(kernel, grid, block, smem, n) + ": " +
              cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace

void check_launch(const char* kernel, dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                  std::size_t n) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) fail("launch", err, kernel, grid, block, smem, n);
  if (sync_launches_enabled()) {
    const cudaError_t serr = cudaStreamSynchronize(stream);
    if (serr != cudaSuccess) fail("kernel execution (TESSERA_SYNC_LAUNCHES=1)", serr, kernel, grid, block, smem, n);
    std::fprintf(stderr, "[tessera] launch %s ok\n", describe(kernel, grid, block, smem, n).c_str());
  }
}

}  // namespace tessera::detail
