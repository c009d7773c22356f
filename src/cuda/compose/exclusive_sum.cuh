// The device-wide exclusive sum the compositions are built on (seed 003:
// "Scan – compute index"): flags -> indices, tile counts -> tile offsets,
// a flag table -> gather positions.
//
// PLACEHOLDER: tessera's own device-wide exclusive sum (patterns/scan.hpp,
// the scan ladder) is being written on another branch; until it is merged
// this forwards to cub::DeviceScan::ExclusiveSum with the same contract, so
// the compositions build and run. Switch the two functions below to tessera's
// scan when it lands (the call sites do not change).
//
// Contract: out[i] = in[0] + ... + in[i-1] (out[0] = 0) for i < n; in and
// out may be the same array; `workspace` holds exclusive_sum_workspace<I>(n)
// bytes; enqueued on `stream`, no allocation, no host synchronisation.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "tessera/core/cuda_check.hpp"

namespace tessera::gpu {

template <class I>
std::size_t exclusive_sum_workspace(std::size_t n) {
  std::size_t bytes = 0;
  if (n == 0) return 0;
  TESSERA_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const I*>(nullptr), static_cast<I*>(nullptr),
                                             static_cast<std::int64_t>(n), cudaStream_t{}));
  return bytes;
}

template <class I>
void exclusive_sum(const I* in, I* out, std::size_t n, void* workspace, std::size_t workspace_bytes,
                   cudaStream_t stream) {
  if (n == 0) return;
  TESSERA_CUDA(cub::DeviceScan::ExclusiveSum(workspace, workspace_bytes, in, out, static_cast<std::int64_t>(n), stream));
}

}  // namespace tessera::gpu
