// Thread block clusters (sm_90): the split cluster barrier and a checked
// cluster launch. Shared by kernels in which the CTAs of a cluster cooperate
// through distributed shared memory (scan lookback_cluster).
//
// Split barrier: every thread of every CTA of the cluster calls
// cluster_arrive() and later cluster_wait(), alternately (a thread must wait
// before it arrives again). arrive has release semantics and wait acquire
// semantics at cluster scope, so writes to another CTA's shared memory made
// before the arrive are visible to every thread after its wait; the work a
// thread does between the two overlaps the barrier. The non-.aligned forms:
// warps may arrive and wait at different points of the kernel.
//
// Distributed shared memory rules (CUDA programming guide, clusters): a CTA
// may touch another CTA's shared memory only once that CTA has started (a
// first cluster barrier guarantees it) and only until that CTA exits (the
// accesses must precede a barrier the owner also waits on).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda/common/launch.cuh"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::gpu {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define TESSERA_CLUSTER_UNSUPPORTED_ARCH 1  // cluster kernels trap (launch_cluster refuses the device first)
#endif

__device__ __forceinline__ void cluster_arrive() {
#ifdef TESSERA_CLUSTER_UNSUPPORTED_ARCH
  __trap();
#else
  asm volatile("barrier.cluster.arrive.release;" ::: "memory");
#endif
}

__device__ __forceinline__ void cluster_wait() {
#ifdef TESSERA_CLUSTER_UNSUPPORTED_ARCH
  __trap();
#else
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
#endif
}

// This CTA's rank in its cluster (0 .. cluster size - 1).
__device__ __forceinline__ unsigned cluster_rank() {
#ifdef TESSERA_CLUSTER_UNSUPPORTED_ARCH
  return 0;
#else
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
#endif
}

// The generic address of `p` (a __shared__ object of this kernel) in the
// shared memory of the cluster's CTA `rank`; ordinary loads and stores work on it.
template <class T>
__device__ __forceinline__ T* cluster_map(T* p, unsigned rank) {
#ifdef TESSERA_CLUSTER_UNSUPPORTED_ARCH
  (void)rank;
  return p;
#else
  unsigned long long remote;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(remote) : "l"(reinterpret_cast<unsigned long long>(p)), "r"(rank));
  return reinterpret_cast<T*>(remote);
#endif
}

}  // namespace tessera::gpu

namespace tessera::detail {

// A launch configuration for clusters of `cluster_x` CTAs along x; `attribute`
// is storage the configuration points to (it must outlive the config's use).
inline cudaLaunchConfig_t cluster_launch_config(dim3 grid, dim3 block, unsigned cluster_x, std::size_t smem,
                                                cudaStream_t stream, cudaLaunchAttribute& attribute) {
  attribute = cudaLaunchAttribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster_x;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// Launches `kernel` as clusters of `cluster_x` CTAs along x (grid.x a
// multiple of it) through cudaLaunchKernelEx. Throws tessera::Error naming
// the kernel when the current device cannot launch clusters or the launch
// fails (e.g. too many resources for a cluster of that size).
template <class... KernelArgs, class... Args>
void launch_cluster(const char* name, void (*kernel)(KernelArgs...), dim3 grid, dim3 block, unsigned cluster_x,
                    std::size_t smem, cudaStream_t stream, std::size_t n, Args&&... args) {
  int device = 0;
  int can_cluster = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&can_cluster, cudaDevAttrClusterLaunch, device));
  if (can_cluster == 0)
    throw Error(std::string("tessera: ") + name + " needs thread block clusters (sm_90 or newer); device " +
                std::to_string(device) + " cannot launch them");
  if (cluster_x == 0 || grid.x % cluster_x != 0)
    throw Error(std::string("tessera: ") + name + ": grid.x " + std::to_string(grid.x) +
                " is not a multiple of the cluster size " + std::to_string(cluster_x));
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_launch_config(grid, block, cluster_x, smem, stream, attribute);
  const cudaError_t err = cudaLaunchKernelEx(&config, kernel, static_cast<KernelArgs>(std::forward<Args>(args))...);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // a failed launch is not sticky: clear it so the next call starts clean
    throw Error(std::string("CUDA cluster launch failed: ") + name + " grid " + std::to_string(grid.x) + ", block " +
                std::to_string(block.x) + ", cluster " + std::to_string(cluster_x) + ", n = " + std::to_string(n) +
                ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
  }
  check_launch(name, grid, block, smem, stream, n);
}

}  // namespace tessera::detail
