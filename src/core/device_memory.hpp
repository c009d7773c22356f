// Helpers of the public APIs in CUDA builds: which memory a pointer lives in,
// and stream-ordered scratch memory for workspaces.
#pragma once

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "core/gpu_present.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera::api {

enum class Memory { host, device };

// Device (or managed) memory vs host memory; without a GPU, host memory.
inline Memory memory_of(const void* p) {
  if (!gpu_present()) return Memory::host;
  cudaPointerAttributes attr{};
  TESSERA_CUDA(cudaPointerGetAttributes(&attr, p));
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) return Memory::device;
  return Memory::host;
}

// The memory a variant of `backend` reads and writes.
inline Memory memory_for(Backend backend) { return backend == Backend::cpu ? Memory::host : Memory::device; }

// Checks, before anything runs, that a variant of `backend` can run here (a
// GPU variant without a GPU is refused as such) and that pointer argument
// `what` lives where it needs it. `who` names the call ("tessera::reduce").
inline void require_runnable(Backend backend, std::string_view who, std::string_view variant) {
  require(backend == Backend::cpu || gpu_present(),
          fmt::format("{}: variant '{}' runs on a GPU and no GPU was found (no CUDA driver or device); the cpu_* "
                      "variants, which a default call takes here, run on host memory",
                      who, variant));
}
inline void require_memory(Backend backend, const void* p, std::string_view what, std::string_view who,
                           std::string_view variant) {
  require_runnable(backend, who, variant);
  const Memory want = memory_for(backend);
  require(memory_of(p) == want, fmt::format("{}: {} must point to {} memory for variant '{}'", who, what,
                                            want == Memory::host ? "host" : "device", variant));
}

// CPU variants run in stream order: they wait for the stream's earlier work,
// when there is a device to wait for.
inline void wait_for_stream(cudaStream_t stream) {
  if (gpu_present()) TESSERA_CUDA(cudaStreamSynchronize(stream));
}

// Stream-ordered scratch memory (cudaMallocAsync), freed on scope exit (also
// on error). `who` prefixes the error message ("tessera::reduce").
class AsyncScratch {
 public:
  // The caller's workspace when it is given (it must hold `bytes`), else a
  // stream-ordered allocation.
  AsyncScratch(std::size_t bytes, const Workspace& given, cudaStream_t stream, const char* who)
      : AsyncScratch(given.ptr != nullptr ? 0 : bytes, stream, who) {
    if (given.ptr == nullptr) return;
    require(given.bytes >= bytes, fmt::format("{}: the workspace holds {} but this call needs {}", who,
                                              detail::format_bytes(given.bytes), detail::format_bytes(bytes)));
    ptr_ = given.ptr;
    owned_ = false;
  }
  AsyncScratch(std::size_t bytes, cudaStream_t stream, const char* who) : stream_(stream) {
    if (bytes == 0) return;
    const cudaError_t err = cudaMallocAsync(&ptr_, bytes, stream);
    if (err != cudaSuccess) {
      ptr_ = nullptr;
      (void)cudaGetLastError();
      std::size_t free_b = 0, total_b = 0;
      (void)cudaMemGetInfo(&free_b, &total_b);
      (void)cudaGetLastError();
      throw Error(fmt::format("{}: cannot allocate {} of workspace: {}; {} free of {}", who,
                              detail::format_bytes(bytes), cudaGetErrorString(err), detail::format_bytes(free_b),
                              detail::format_bytes(total_b)));
    }
  }
  ~AsyncScratch() {
    if (ptr_ != nullptr && owned_) (void)cudaFreeAsync(ptr_, stream_);
  }
  AsyncScratch(const AsyncScratch&) = delete;
  AsyncScratch& operator=(const AsyncScratch&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  bool owned_ = true;
  cudaStream_t stream_;
};

}  // namespace tessera::api
