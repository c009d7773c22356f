// GPU test scaffolding shared by the *_gpu.cpp tests (CUDA builds): device
// detection, a non-blocking stream per test, a fixture that skips without a
// device and checks that a test left no CUDA error behind, a graph capture of
// a variant's run, and the stream-ordered memory a call allocates.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>

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

// Bytes that `f` took at once from the device's default memory pool (where
// cudaMallocAsync allocates): 0 for a call given a large enough workspace.
template <class F>
std::uint64_t pool_bytes_used_by(F&& f) {
  int device = 0;
  cudaMemPool_t pool = nullptr;
  std::uint64_t high = 0, zero = 0;
  TESSERA_CUDA(cudaDeviceSynchronize());
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetDefaultMemPool(&pool, device));
  TESSERA_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  f();
  TESSERA_CUDA(cudaDeviceSynchronize());
  TESSERA_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  return high;
}

}  // namespace tessera_test
