// The first non-finite device atom (validate.cuh): a thread per atom, the
// smallest bad index by atomicMin.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>

#include "families/cutoff/validate.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::cutoff_impl::gpu {

namespace {

constexpr int THREADS = 256;

__global__ void cutoff_first_bad_atom_kernel(const float4* atoms, std::size_t n, unsigned long long* first) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 a = atoms[i];
    if (!(isfinite(a.x) && isfinite(a.y) && isfinite(a.z) && isfinite(a.w))) atomicMin(first, (unsigned long long)i);
  }
}

}  // namespace

long long first_non_finite_atom(const Atom* d_atoms, std::size_t n, void* d_scratch, cudaStream_t stream) {
  if (n == 0) return -1;
  auto* first = static_cast<unsigned long long*>(d_scratch);
  TESSERA_CUDA(cudaMemsetAsync(first, 0xFF, sizeof(*first), stream));
  const auto blocks = unsigned(std::min<std::size_t>(detail::div_up(n, THREADS), 4096));
  detail::launch("cutoff_first_bad_atom_kernel", cutoff_first_bad_atom_kernel, blocks, THREADS, 0, stream, n,
                 reinterpret_cast<const float4*>(d_atoms), n, first);
  unsigned long long host = 0;
  TESSERA_CUDA(cudaMemcpyAsync(&host, first, sizeof(host), cudaMemcpyDeviceToHost, stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  return host == ULLONG_MAX ? -1 : (long long)host;
}

}  // namespace tessera::cutoff_impl::gpu
