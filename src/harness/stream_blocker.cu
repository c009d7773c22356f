// StreamBlocker (harness/stream_blocker.hpp): the spinning kernel and the
// mapped host flag it polls.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "tessera/core/cuda_check.hpp"
#include "harness/stream_blocker.hpp"

namespace tessera::harness {

namespace {

// Long enough for any enqueue that does not wait on the GPU (the slowest
// measured: a few hundred launches), short enough that a run that does wait
// loses little before the caller falls back.
constexpr unsigned long long HOLD_TIMEOUT_NS = 50'000'000ull;

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold_stream_kernel(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long t0 = global_ns();
  while (flags[0] == 0) {
    if (global_ns() - t0 > timeout_ns) {
      flags[1] = 1;
      return;
    }
    __nanosleep(256);
  }
}

}  // namespace

StreamBlocker::StreamBlocker() {
  if (const char* e = std::getenv("TESSERA_HOLD_STREAM"); e != nullptr && std::string_view(e) == "0") return;
  void* host = nullptr;
  if (cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped) != cudaSuccess) {
    (void)cudaGetLastError();  // no mapped memory: time without holding
    return;
  }
  void* dev = nullptr;
  if (cudaHostGetDevicePointer(&dev, host, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    (void)cudaFreeHost(host);
    return;
  }
  flags_ = static_cast<volatile int*>(host);
  device_flags_ = static_cast<int*>(dev);
  flags_[0] = 1;
  flags_[1] = 0;
}

StreamBlocker::~StreamBlocker() {
  if (flags_ != nullptr) (void)cudaFreeHost(const_cast<int*>(flags_));
}

void StreamBlocker::hold(stream_t s) {
  flags_[0] = 0;
  flags_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // Not through detail::launch: its debug mode (TESSERA_SYNC_LAUNCHES)
  // synchronises after each launch, which would wait out the timeout here.
  hold_stream_kernel<<<1, 1, 0, s>>>(static_cast<volatile int*>(device_flags_), HOLD_TIMEOUT_NS);
  TESSERA_CUDA(cudaGetLastError());
}

void StreamBlocker::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flags_[0] = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

bool StreamBlocker::timed_out() const { return flags_[1] != 0; }

}  // namespace tessera::harness
