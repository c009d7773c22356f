// unique step 7 — thrust::unique_copy (CUDA backend), a second vendor
// baseline of unique beside cub_select_unique
// (compact/07_cub_compact_partition_unique.cu).
//
// Thrust allocates its temporary storage through the execution policy's
// allocator: here a bump allocator over the variant's workspace, so no
// cudaMalloc happens inside the timed region. The policy runs on the caller's
// stream (par_nosync(alloc).on(stream)). thrust::unique_copy returns the end
// iterator, so it copies the count to the host: one device-to-host copy and a
// stream synchronisation are inside every run (and inside the timing), and
// the run cannot be captured in a CUDA graph (it refuses with tessera::Error
// while the stream is capturing). The count is then written to the device by
// a one-thread kernel. Thrust's unique counts in int: n < 2^31.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <thrust/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/unique.h>

#include "tessera/blocks/multipass.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::compose_impl {

namespace {

// Bump allocation over a fixed workspace. Copies share the state (thrust may
// copy the allocator), deallocation is a no-op: the workspace lives as long
// as the run.
struct WorkspaceArena {
  char* base;
  std::size_t size;
  std::size_t used = 0;
};

struct WorkspaceAllocator {
  using value_type = char;
  WorkspaceArena* arena;

  char* allocate(std::ptrdiff_t bytes) {
    const std::size_t at = gpu::align_workspace(arena->used);
    if (bytes < 0 || at + static_cast<std::size_t>(bytes) > arena->size)
      throw Error("thrust_unique: thrust asked for " + std::to_string(bytes) + " bytes of temporary storage, " +
                  std::to_string(arena->size - std::min(at, arena->size)) + " left in the workspace");
    arena->used = at + static_cast<std::size_t>(bytes);
    return arena->base + at;
  }
  void deallocate(char*, std::size_t) {}
};

// Thrust's tile states (a few bytes per tile of >= 128 items), its count and
// alignment: n / 8 + 1 MiB is far more than it asks for.
constexpr std::size_t SLACK_BYTES = std::size_t(1) << 20;

}  // namespace

void run_thrust_unique(const Call& call) {
  const std::size_t n = call.spec.n;
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  TESSERA_CUDA(cudaStreamIsCapturing(call.stream, &capturing));
  if (capturing != cudaStreamCaptureStatusNone)
    throw Error("thrust_unique copies its count to the host: it cannot run inside a CUDA graph capture");
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  dispatch_key_type(call.spec.dtype, [&]<class T>() {
    WorkspaceArena arena{static_cast<char*>(call.workspace), ws_thrust_unique(call.spec)};
    WorkspaceAllocator alloc{&arena};
    const T* in = static_cast<const T*>(call.in);
    T* out = static_cast<T*>(call.out);
    std::int64_t k = 0;
    try {
      T* end = thrust::unique_copy(thrust::cuda::par_nosync(alloc).on(call.stream), in, in + n, out);
      k = end - out;
    } catch (const thrust::system_error& e) {
      throw Error(std::string("thrust_unique: ") + e.what());
    }
    gpu::store_value<std::int64_t>(call.count, k, call.stream, n);
  });
}

std::size_t ws_thrust_unique(const Spec& s) { return s.n == 0 ? 0 : s.n / 8 + SLACK_BYTES; }

bool supports_thrust_unique(const Spec& s) {
  return s.family == Family::unique && family_supports(s) && s.n <= static_cast<std::size_t>(INT_MAX);
}

}  // namespace tessera::compose_impl
