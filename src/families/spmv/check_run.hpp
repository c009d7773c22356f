// The harness check's run of one variant (problem.cpp, batched_problem.cpp):
// y starts as y0, or as the NaN poison where y0 is empty (beta == 0: y must
// be written, never read), and comes back on the host after the run.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "tessera/core/types.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::spmv_impl {

// host_y holds at least max(rows, 1) values; run() writes y there.
template <class T, class Run>
std::vector<T> y_after_host_run(const std::vector<T>& y0, std::vector<T>& host_y, Run&& run) {
  if (y0.empty()) std::memset(host_y.data(), 0xFF, host_y.size() * sizeof(T));
  else std::copy(y0.begin(), y0.end(), host_y.begin());
  run();
  return host_y;
}

#if TESSERA_HAVE_CUDA
// dev_y holds rows values; run() enqueues the product on stream.
template <class T, class Run>
std::vector<T> y_after_device_run(const std::vector<T>& y0, std::size_t rows, DeviceBytes& dev_y, stream_t stream,
                                  Run&& run) {
  std::vector<T> got(std::max<std::size_t>(rows, 1));
  if (y0.empty()) dev_y.fill_bytes(0xFF, stream);
  else TESSERA_CUDA(cudaMemcpyAsync(dev_y.data(), y0.data(), rows * sizeof(T), cudaMemcpyHostToDevice, stream));
  run();
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  dev_y.download(got.data(), rows * sizeof(T));
  return got;
}
#endif

}  // namespace tessera::spmv_impl
