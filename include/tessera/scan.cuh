// tessera::scan_with — inclusive or exclusive scan of device data with a
// user-supplied associative operator, on tessera's single-pass look-back
// kernel (step 9 of the scan ladder, docs/scan.md). Include it from a CUDA
// translation unit (nvcc, C++20): it instantiates the kernel for your element
// type and operator; link tessera::tessera (its checked CUDA calls).
//
//   struct Affine { int a, b; };                  // x -> a*x + b
//   struct Compose {                              // associative, not commutative
//     __device__ Affine operator()(Affine l, Affine r) const { return {r.a * l.a, r.a * l.b + r.b}; }
//   };
//   tessera::scan_with(d_in, n, d_out, Compose{}, Affine{1, 0});                    // inclusive
//   tessera::scan_with(d_in, n, d_out, Compose{}, Affine{1, 0}, {.exclusive = true, .stream = s});
//
// Contract: op(left, right) is associative (not necessarily commutative:
// `left` always covers the earlier elements); `identity` satisfies
// op(identity, x) == x (the exclusive scan's first output). T is trivially
// copyable; any size works, sizes dividing 16 get 16-byte vector accesses.
// inclusive: out[i] = in[0] op ... op in[i]; exclusive: out[0] = identity,
// out[i] = in[0] op ... op in[i-1]. d_out == d_in scans in place; any other
// overlap is rejected. The combination order differs from a serial loop (a
// tree within tiles, a chain across them), so a floating-point operator that
// is associative only up to rounding gives run-to-run differences.
//
// Enqueues one cudaMemsetAsync and one kernel on options.stream. Its scratch
// (a tile counter and one status slot per tile) is allocated and freed in
// stream order, unless options.workspace holds scan_with_workspace_bytes<T>(n):
// then nothing is allocated (graph capture, hot loops). n == 0 does nothing.
// Errors (a null pointer with n > 0, overlapping arrays, a workspace too
// small, a failed allocation or launch) throw tessera::Error before anything
// is written.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct ScanWithOptions {
  bool exclusive = false;
  stream_t stream = nullptr;
  Workspace workspace = {};  // optional scratch of scan_with_workspace_bytes<T>(n) bytes
};

namespace scan_with_detail {

inline constexpr const char* WHO = "tessera::scan_with";

// The ScanFn of lookback_tile.cuh over a user operator: elements are states.
template <class T, class Op>
struct UserScan {
  using in_t = T;
  using acc_t = T;
  using out_t = T;
  Op op;
  T id;
  __device__ T identity() const { return id; }
  __device__ T lift(T x) const { return x; }
  __device__ T combine(T left, T right) const { return op(left, right); }
  __device__ T output(T a) const { return a; }
};

// The ladder's `lookback` policy, here for user states of any size.
using Policy = gpu::LookbackDefaultPolicy;

template <class T>
struct AnyOp {
  __device__ T operator()(T a, T) const { return a; }
};

// The caller's workspace when it is given (it must hold `bytes`), else
// stream-ordered scratch freed on scope exit, as the library's calls do.
class Scratch {
 public:
  Scratch(std::size_t bytes, const Workspace& given, cudaStream_t stream) : stream_(stream) {
    if (given.ptr != nullptr) {
      require(given.bytes >= bytes, std::string(WHO) + ": the workspace holds " + detail::format_bytes(given.bytes) +
                                        " but this call needs " + detail::format_bytes(bytes));
      ptr_ = given.ptr;
      return;
    }
    const cudaError_t err = cudaMallocAsync(&ptr_, bytes, stream);
    if (err == cudaSuccess) {
      owned_ = true;
      return;
    }
    ptr_ = nullptr;
    (void)cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    (void)cudaMemGetInfo(&free_b, &total_b);
    (void)cudaGetLastError();
    throw Error(std::string(WHO) + ": cannot allocate " + detail::format_bytes(bytes) + " of workspace: " +
                cudaGetErrorString(err) + "; " + detail::format_bytes(free_b) + " free of " +
                detail::format_bytes(total_b));
  }
  ~Scratch() {
    if (owned_) (void)cudaFreeAsync(ptr_, stream_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  bool owned_ = false;
  cudaStream_t stream_;
};

}  // namespace scan_with_detail

template <class T>
std::size_t scan_with_workspace_bytes(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "scan_with: T must be trivially copyable");
  using F = scan_with_detail::UserScan<T, scan_with_detail::AnyOp<T>>;
  return gpu::LookbackScan<scan_with_detail::Policy, F>::workspace_bytes(n);
}

template <class T, class Op>
void scan_with(const T* d_in, std::size_t n, T* d_out, Op op, T identity, const ScanWithOptions& options = {}) {
  static_assert(std::is_trivially_copyable_v<T>, "scan_with: T must be trivially copyable");
  using namespace scan_with_detail;
  using F = UserScan<T, Op>;
  using L = gpu::LookbackScan<Policy, F>;
  if (n == 0) return;
  require(d_in != nullptr, std::string(WHO) + ": d_in is a null pointer but n = " + std::to_string(n));
  require(d_out != nullptr, std::string(WHO) + ": d_out is a null pointer but n = " + std::to_string(n));
  const auto a = reinterpret_cast<std::uintptr_t>(d_in), b = reinterpret_cast<std::uintptr_t>(d_out);
  const std::size_t bytes = n * sizeof(T);
  require(a == b || a + bytes <= b || b + bytes <= a,
          std::string(WHO) + ": d_in and d_out overlap without being equal (" + std::to_string(bytes) +
              " bytes each); scan in place with d_out == d_in, or use separate arrays");
  const gpu::ScanLayout layout = L::layout(d_in, d_out, n, options.exclusive);
  require(layout.tiles <= 0x7fffffffu,
          std::string(WHO) + ": n = " + std::to_string(n) + " needs more tiles than a grid holds");
  Scratch ws(L::workspace_bytes(n), options.workspace, options.stream);
  TESSERA_CUDA(cudaMemsetAsync(ws.get(), 0, L::clear_bytes(layout), options.stream));
  detail::launch("scan_lookback_kernel (scan_with)", gpu::scan_lookback_kernel<Policy, F>, dim3(layout.tiles),
                 dim3(Policy::THREADS), 0, options.stream, n, d_in, d_out, layout, ws.get(),
                 static_cast<T*>(nullptr), F{op, identity});
}

}  // namespace tessera
