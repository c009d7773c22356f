// The public API's structure check on the device (SpmvOptions::
// validate_structure): one pass over the row offsets and one over the
// column indices, each thread folding the index of a violation it finds
// into an atomicMin, so the first bad index comes back whatever the order
// the threads ran in. Costs a launch, a pass over rows * 8 + nnz * 4 bytes
// and a synchronisation.
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::spmv_impl {

namespace {

constexpr unsigned long long NONE = ~0ull;

__global__ void bad_offset_kernel(const std::int64_t* __restrict__ off, std::int64_t rows, std::int64_t nnz,
                                  unsigned long long* first) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r > rows) return;
  const bool bad = r == 0 ? off[0] != 0 : (off[r] < off[r - 1] || (r == rows && off[r] != nnz));
  if (bad) atomicMin(first, static_cast<unsigned long long>(r));
}

__global__ void bad_column_kernel(const std::int32_t* __restrict__ col, std::int64_t nnz, std::int64_t cols,
                                  unsigned long long* first) {
  const std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (k >= nnz) return;
  const std::int32_t c = col[k];
  if (c < 0 || c >= cols) atomicMin(first, static_cast<unsigned long long>(k));
}

template <class Launch>
std::int64_t first_bad(stream_t s, Launch&& launch) {
  const auto stream = static_cast<cudaStream_t>(s);
  DeviceBytes slot(sizeof(unsigned long long), "spmv validation slot");
  slot.fill_bytes(0xFF, s);
  launch(static_cast<unsigned long long*>(slot.data()), stream);
  unsigned long long host = NONE;
  TESSERA_CUDA(cudaMemcpyAsync(&host, slot.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  return host == NONE ? -1 : static_cast<std::int64_t>(host);
}

}  // namespace

std::int64_t device_first_bad_offset(const std::int64_t* offsets, std::int64_t rows, std::int64_t nnz,
                                     stream_t stream) {
  return first_bad(stream, [&](unsigned long long* first, cudaStream_t s) {
    detail::launch("spmv_bad_offset_kernel", bad_offset_kernel, dim3(gpu::blocks_for(rows + 1, gpu::BLOCK_THREADS)),
                   dim3(gpu::BLOCK_THREADS), 0, s, std::size_t(rows + 1), offsets, rows, nnz, first);
  });
}

std::int64_t device_first_bad_column(const std::int32_t* col, std::int64_t nnz, std::int64_t cols, stream_t stream) {
  if (nnz == 0) return -1;
  return first_bad(stream, [&](unsigned long long* first, cudaStream_t s) {
    detail::launch("spmv_bad_column_kernel", bad_column_kernel, dim3(gpu::blocks_for(nnz, gpu::BLOCK_THREADS)),
                   dim3(gpu::BLOCK_THREADS), 0, s, std::size_t(nnz), col, nnz, cols, first);
  });
}

}  // namespace tessera::spmv_impl
