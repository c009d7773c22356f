// GPU test scaffolding for the scan tests (CUDA builds): device detection, a
// non-blocking stream per test, and a fixture that skips without a device and
// checks that a test left no CUDA error behind. (test_reduce_gpu.cpp keeps
// its own copy of the same helpers.)
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <memory>

#include "tessera/core/cuda_check.hpp"

namespace tessera_test {

inline constexpr const char* kNoGpu = "no CUDA device: GPU tests skipped";

inline bool gpu_available() {
  static const bool available = [] {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    (void)cudaGetLastError();
    return err == cudaSuccess && count > 0;
  }();
  return available;
}

class GpuStream {
 public:
  GpuStream() { TESSERA_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~GpuStream() {
    if (s_ != nullptr) (void)cudaStreamDestroy(s_);
  }
  GpuStream(const GpuStream&) = delete;
  GpuStream& operator=(const GpuStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

template <class Base>
class GpuFixture : public Base {
 protected:
  void SetUp() override {
    if (!gpu_available()) GTEST_SKIP() << kNoGpu;
    stream_ = std::make_unique<GpuStream>();
  }
  void TearDown() override {
    if (!stream_) return;
    EXPECT_EQ(cudaStreamSynchronize(stream_->get()), cudaSuccess);
    stream_.reset();
    const cudaError_t err = cudaGetLastError();
    EXPECT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
  }
  cudaStream_t stream() const { return stream_->get(); }

 private:
  std::unique_ptr<GpuStream> stream_;
};

// Synchronous uploads from pageable memory may still be in flight when
// cudaMemcpy returns: synchronise before a non-blocking stream uses the data.
inline void device_sync() { TESSERA_CUDA(cudaDeviceSynchronize()); }

}  // namespace tessera_test
