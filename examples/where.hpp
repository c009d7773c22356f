// Where the examples' data lives: device memory when a GPU is present, host
// memory otherwise (a CPU-only tessera's calls take host pointers).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace example {

inline bool gpu() {
#if TESSERA_HAVE_CUDA
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
#else
  return false;
#endif
}

// An array on the device (GPU) or the host (no GPU), filled from `values`.
template <class T>
class Array {
 public:
  explicit Array(const std::vector<T>& values) : host_(values) {
#if TESSERA_HAVE_CUDA
    if (gpu()) {
      check(cudaMalloc(reinterpret_cast<void**>(&device_), sizeof(T) * (values.empty() ? 1 : values.size())));
      check(cudaMemcpy(device_, values.data(), sizeof(T) * values.size(), cudaMemcpyHostToDevice));
    }
#endif
  }
  explicit Array(std::size_t n) : Array(std::vector<T>(n)) {}
  ~Array() {
#if TESSERA_HAVE_CUDA
    if (device_) cudaFree(device_);
#endif
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  T* data() { return device_ ? device_ : host_.data(); }
  const std::vector<T>& host() {
#if TESSERA_HAVE_CUDA
    if (device_) check(cudaMemcpy(host_.data(), device_, sizeof(T) * host_.size(), cudaMemcpyDeviceToHost));
#endif
    return host_;
  }

 private:
#if TESSERA_HAVE_CUDA
  static void check(cudaError_t e) {
    if (e != cudaSuccess) {
      std::fprintf(stderr, "CUDA: %s\n", cudaGetErrorString(e));
      std::exit(3);
    }
  }
#endif
  std::vector<T> host_;
  T* device_ = nullptr;
};

// Exit status 1 with a message unless `ok`.
inline void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "example failed: %s\n", what);
    std::exit(1);
  }
}

}  // namespace example
