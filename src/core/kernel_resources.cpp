#include "core/kernel_resources.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::gpu {

namespace {

std::mutex cache_mutex;

int current_device() {
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  return device;
}

// Under cache_mutex: raises `kernel`'s dynamic shared-memory limit to what is
// left of the per-block maximum after its static shared memory, and prefers
// the maximum shared-memory carveout.
void opt_in_locked(int device, const void* kernel) {
  static std::set<std::pair<int, const void*>> done;
  if (done.count({device, kernel}) != 0) return;
  int optin = 0;
  TESSERA_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attr{};
  TESSERA_CUDA(cudaFuncGetAttributes(&attr, kernel));
  const int dynamic_max = optin - static_cast<int>(attr.sharedSizeBytes);
  if (dynamic_max > 0)
    TESSERA_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_max));
  // Ask for the largest shared-memory carveout, so that shared memory never
  // caps the resident blocks the occupancy query reports (the carveout is a
  // hint the driver otherwise picks itself).
  TESSERA_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
  done.insert({device, kernel});
}

}  // namespace

int resident_blocks_per_sm(const void* kernel, int block_threads, std::size_t smem_bytes, const char* name) {
  const int device = current_device();
  std::lock_guard<std::mutex> lock(cache_mutex);
  static std::map<std::tuple<int, const void*, int, std::size_t>, int> cache;
  const auto key = std::make_tuple(device, kernel, block_threads, smem_bytes);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  opt_in_locked(device, kernel);
  int blocks = 0;
  TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, smem_bytes));
  if (blocks < 1)
    throw Error(std::string("tessera: kernel ") + name + " cannot run with " + std::to_string(block_threads) +
                " threads and " + std::to_string(smem_bytes) + " bytes of dynamic shared memory per block");
  cache.emplace(key, blocks);
  return blocks;
}

}  // namespace tessera::gpu
