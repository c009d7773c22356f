// The GPU test fixture any pattern's *_gpu.cpp tests can share: skip without
// a device, give each test its own non-blocking stream, and fail a test that
// leaves a CUDA error behind. CUDA builds only.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <memory>

#include "tessera/core/cuda_check.hpp"

namespace tessera_test {

inline constexpr const char* kNoGpuMessage = "no CUDA device: GPU tests skipped";

inline bool gpu_available() {
  static const bool available = [] {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    (void)cudaGetLastError();
    return err == cudaSuccess && count > 0;
  }();
  return available;
}

class TestStream {
 public:
  TestStream() { TESSERA_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~TestStream() {
    if (s_ != nullptr) (void)cudaStreamDestroy(s_);
  }
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

template <class Base>
class WithGpuStream : public Base {
 protected:
  void SetUp() override {
    if (!gpu_available()) GTEST_SKIP() << kNoGpuMessage;
    stream_ = std::make_unique<TestStream>();
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
  std::unique_ptr<TestStream> stream_;
};

}  // namespace tessera_test
