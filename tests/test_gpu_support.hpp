// The GPU test fixture any pattern's *_gpu.cpp tests can share: skip without
// a device, give each test its own non-blocking stream, and fail a test that
// leaves a CUDA error behind. CUDA builds only.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <exception>
#include <memory>
#include <string>

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

// What `enqueue()` puts on `stream`, captured into an executable graph in
// global mode, which rejects any call unsafe during a capture (allocation,
// synchronisation): a variant's run must pass. ok() says why it did not.
class CapturedGraph {
 public:
  template <class F>
  CapturedGraph(cudaStream_t stream, F&& enqueue) {
    if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) != cudaSuccess) {
      error_ = "cudaStreamBeginCapture failed";
      (void)cudaGetLastError();
      return;
    }
    try {
      enqueue();
    } catch (const std::exception& e) {
      error_ = std::string("run failed under stream capture: ") + e.what();
    }
    cudaGraph_t graph = nullptr;
    const cudaError_t end = cudaStreamEndCapture(stream, &graph);
    (void)cudaGetLastError();
    if (error_.empty() && end != cudaSuccess) error_ = std::string("capture invalidated: ") + cudaGetErrorString(end);
    if (error_.empty() && cudaGraphInstantiate(&exec_, graph, 0) != cudaSuccess) error_ = "cudaGraphInstantiate failed";
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
  }
  ~CapturedGraph() {
    if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  ::testing::AssertionResult ok() const {
    if (error_.empty() && exec_ != nullptr) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << error_;
  }
  cudaError_t launch(cudaStream_t stream) const { return cudaGraphLaunch(exec_, stream); }

 private:
  cudaGraphExec_t exec_ = nullptr;
  std::string error_;
};

}  // namespace tessera_test
