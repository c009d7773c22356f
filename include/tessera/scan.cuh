// tessera::scan_with — inclusive or exclusive scan of device data with a
// user-supplied associative operator, on tessera's single-pass look-back
// kernel (step 9 of the scan ladder, docs/scan.md). Header-only: include it
// from a CUDA translation unit (nvcc, C++20); it instantiates the kernel for
// your element type and operator.
//
//   struct Affine { int a, b; };                  // x -> a*x + b
//   struct Compose {                              // associative, not commutative
//     __device__ Affine operator()(Affine l, Affine r) const { return {r.a * l.a, r.a * l.b + r.b}; }
//   };
//   std::size_t ws = tessera::scan_with_workspace_bytes<Affine>(n);
//   // ... cudaMalloc ws bytes ...
//   tessera::scan_with(d_in, d_out, n, Compose{}, Affine{1, 0}, /*exclusive=*/false, d_ws, ws, stream);
//
// Contract: op(left, right) is associative (not necessarily commutative:
// `left` always covers the earlier elements); `identity` satisfies
// op(identity, x) == x (the exclusive scan's first output). T is trivially
// copyable; any size works, sizes dividing 16 get 16-byte vector accesses.
// inclusive: out[i] = in[0] op ... op in[i]; exclusive: out[0] = identity,
// out[i] = in[0] op ... op in[i-1]. d_out == d_in scans in place; other
// overlaps are not allowed. The combination order differs from a serial loop
// (a tree within tiles, a chain across them), so a floating-point operator
// that is associative only up to rounding gives run-to-run differences.
//
// Enqueues one cudaMemsetAsync and one kernel on `stream`: no allocation, no
// synchronisation (graph-capturable). Returns the first CUDA error
// (cudaErrorInvalidValue for a null pointer with n > 0 or a workspace smaller
// than scan_with_workspace_bytes<T>(n)); n == 0 does nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "tessera/blocks/lookback_tile.cuh"

namespace tessera {

namespace scan_with_detail {

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

// 256 threads, 4 vectors per thread: the primary policy of the ladder's step 9
// (src/cuda/scan/lookback_run.cuh), here for user states of any size.
using Policy = gpu::LookbackPolicy<256, 4, 4, 4>;

template <class T>
struct AnyOp {
  __device__ T operator()(T a, T) const { return a; }
};

}  // namespace scan_with_detail

template <class T>
std::size_t scan_with_workspace_bytes(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "scan_with: T must be trivially copyable");
  using F = scan_with_detail::UserScan<T, scan_with_detail::AnyOp<T>>;
  return gpu::LookbackScan<scan_with_detail::Policy, F>::workspace_bytes(n);
}

template <class T, class Op>
cudaError_t scan_with(const T* d_in, T* d_out, std::size_t n, Op op, T identity, bool exclusive, void* d_workspace,
                      std::size_t workspace_bytes, cudaStream_t stream = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>, "scan_with: T must be trivially copyable");
  using F = scan_with_detail::UserScan<T, Op>;
  using P = scan_with_detail::Policy;
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return cudaSuccess;
  if (d_in == nullptr || d_out == nullptr || d_workspace == nullptr) return cudaErrorInvalidValue;
  if (workspace_bytes < L::workspace_bytes(n)) return cudaErrorInvalidValue;
  const gpu::ScanLayout layout = L::layout(d_in, d_out, n, exclusive);
  if (layout.tiles > 0x7fffffffu) return cudaErrorInvalidValue;  // grid.x limit
  cudaError_t err = cudaMemsetAsync(d_workspace, 0, L::clear_bytes(layout), stream);
  if (err != cudaSuccess) return err;
  gpu::scan_lookback_kernel<P, F><<<layout.tiles, P::THREADS, 0, stream>>>(d_in, d_out, layout, d_workspace,
                                                                          static_cast<T*>(nullptr), F{op, identity});
  return cudaGetLastError();
}

}  // namespace tessera
