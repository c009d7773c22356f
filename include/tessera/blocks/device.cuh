// Properties of the current device used for grid sizing, queried once per
// device (cudaDeviceGetAttribute, checked) and cached. Host-only, no stream
// work: safe to call while a stream is being captured into a graph.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <string>

#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::gpu {

namespace device_detail {

constexpr int MAX_CACHED_DEVICES = 64;  // more GPUs than any single host has

struct DeviceProps {
  std::atomic<int> sm_count{0};  // 0: not queried yet
  std::atomic<int> max_threads_per_sm{0};
};

inline DeviceProps& props_of(int device) {
  static DeviceProps cache[MAX_CACHED_DEVICES];
  if (device < 0 || device >= MAX_CACHED_DEVICES)
    throw Error("tessera: device ordinal " + std::to_string(device) + " outside the property cache");
  return cache[device];
}

inline int cached_attribute(std::atomic<int> DeviceProps::*field, cudaDeviceAttr attr) {
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  std::atomic<int>& slot = props_of(device).*field;
  int value = slot.load(std::memory_order_relaxed);
  if (value == 0) {  // racing first queries store the same value
    TESSERA_CUDA(cudaDeviceGetAttribute(&value, attr, device));
    slot.store(value, std::memory_order_relaxed);
  }
  return value;
}

}  // namespace device_detail

// Streaming multiprocessors of the current device.
inline int sm_count() {
  return device_detail::cached_attribute(&device_detail::DeviceProps::sm_count, cudaDevAttrMultiProcessorCount);
}

// Resident threads per SM of the current device (2048 on H100).
inline int max_threads_per_sm() {
  return device_detail::cached_attribute(&device_detail::DeviceProps::max_threads_per_sm,
                                         cudaDevAttrMaxThreadsPerMultiProcessor);
}

}  // namespace tessera::gpu
