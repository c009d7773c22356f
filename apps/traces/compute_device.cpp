// The GPU path: each batch is uploaded from pinned host memory into one
// device buffer, scanned in place with tessera::batched_scan on a stream of
// its own, and downloaded. The copies are not overlapped with the scan: at
// ~25 GB/s each way PCIe is already far faster than the file I/O the
// pipeline overlaps it with (engine.hpp), so a second device buffer would
// buy nothing measurable.
#include "engine.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/batched_scan.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::traces {

#if TESSERA_HAVE_CUDA
namespace {

class DeviceScan final : public Compute {
 public:
  explicit DeviceScan(const TraceScanOptions& scan) : opt_(scan) {
    int dev = 0;
    TESSERA_CUDA(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    TESSERA_CUDA(cudaGetDeviceProperties(&prop, dev));
    name_ = prop.name;
    std::size_t total = 0;
    TESSERA_CUDA(cudaMemGetInfo(&free_, &total));
    TESSERA_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~DeviceScan() override {
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  DeviceScan(const DeviceScan&) = delete;
  DeviceScan& operator=(const DeviceScan&) = delete;

  HostBuffer allocate_host(std::size_t count) override {
    // Pinned memory: full-speed, truly asynchronous copies. Falls back to
    // pageable memory (slower copies, same results) when pinning fails.
    void* p = nullptr;
    if (count > 0 && cudaMallocHost(&p, count * sizeof(float)) == cudaSuccess)
      return HostBuffer(static_cast<float*>(p), [](float* q) { (void)cudaFreeHost(q); });
    (void)cudaGetLastError();
    return allocate_pageable(count);
  }
  // Half the free device memory: the rest is headroom for the scan's own
  // workspace and for other users of the GPU.
  std::size_t max_batch_traces(std::size_t len) const override {
    return len == 0 ? free_ : free_ / 2 / (len * sizeof(float));
  }
  void prepare(std::size_t batch_traces, std::size_t len) override {
    d_ = DeviceBuffer<float>(batch_traces * len, "a batch of traces");
    d_.fill_bytes(0, stream_);
    // One row of the real length through the real call, before any output
    // exists: an unknown variant or an unsupported accumulator fails here.
    batched_scan(d_.data(), 1, len, d_.data(), options());
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
    variant_ = opt_.variant.empty()
                   ? batched_scan_default_variant(batch_traces, len, opt_.accum, opt_.direction)
                   : opt_.variant;
  }
  void run(float* x, std::size_t rows, std::size_t len, std::size_t) override {
    const std::size_t bytes = rows * len * sizeof(float);
    TESSERA_CUDA(cudaMemcpyAsync(d_.data(), x, bytes, cudaMemcpyHostToDevice, stream_));
    batched_scan(d_.data(), rows, len, d_.data(), options());
    TESSERA_CUDA(cudaMemcpyAsync(x, d_.data(), bytes, cudaMemcpyDeviceToHost, stream_));
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
  }
  bool on_gpu() const override { return true; }
  std::string device() const override { return name_; }
  std::string variant() const override { return variant_; }

 private:
  BatchedScanOptions options() const {
    return {.direction = opt_.direction, .accum = opt_.accum, .exclusive = opt_.exclusive, .variant = opt_.variant,
            .stream = stream_};
  }
  TraceScanOptions opt_;
  std::string name_, variant_;
  std::size_t free_ = 0;
  cudaStream_t stream_ = nullptr;
  DeviceBuffer<float> d_;
};

}  // namespace

bool device_present() noexcept { return detail::cuda_device_available(); }
bool gpu_present() noexcept { return device_present(); }

std::unique_ptr<Compute> make_device_scan(const TraceScanOptions& scan) {
  if (!device_present()) return nullptr;
  return std::make_unique<DeviceScan>(scan);
}

#else

bool device_present() noexcept { return false; }
bool gpu_present() noexcept { return false; }
std::unique_ptr<Compute> make_device_scan(const TraceScanOptions&) { return nullptr; }

#endif

}  // namespace tessera::traces
