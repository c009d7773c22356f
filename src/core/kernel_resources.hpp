// Per-kernel launch resources, queried once and cached: resident blocks per
// SM from the occupancy API, and the opt-in to more than 48 KB of dynamic
// shared memory. Host-only, no stream work, so a run that has been through
// here once can be captured in a CUDA graph. Thread-safe.
#pragma once

#include <cstddef>

namespace tessera::gpu {

// Resident blocks per SM of `kernel` (a __global__ function's address) at
// `block_threads` threads and `smem_bytes` of dynamic shared memory, on the
// current device. The first call for a kernel on a device raises its dynamic
// shared-memory limit to the most a block may have, so launches above 48 KB
// work, and sets its preferred carveout to the most shared memory (meant for
// kernels whose working set is in shared memory). Throws tessera::Error
// naming `name` when no block fits at all.
int resident_blocks_per_sm(const void* kernel, int block_threads, std::size_t smem_bytes, const char* name);

}  // namespace tessera::gpu
