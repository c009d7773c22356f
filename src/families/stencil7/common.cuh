// What the CUDA rungs of stencil7 share: the grid's dimensions as the kernels
// see them, the boundary test, and the driver of a one-sweep-per-pass rung
// (sweeps = 0 is a copy; otherwise the ping-pong of sweep_plan.hpp).
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

#include "families/stencil7/point.hpp"
#include "families/stencil7/sweep_plan.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::stencil7_impl::gpu {

// Each dimension fits an int (supports() checks): per-axis indices are ints,
// offsets into the grid are size_t.
struct Dims {
  int nx, ny, nz;
  __host__ __device__ std::size_t plane() const { return std::size_t(nx) * std::size_t(ny); }
  __host__ __device__ std::size_t at(int x, int y, int z) const {
    return (std::size_t(z) * std::size_t(ny) + std::size_t(y)) * std::size_t(nx) + std::size_t(x);
  }
  __host__ __device__ bool interior_xy(int x, int y) const { return x > 0 && x < nx - 1 && y > 0 && y < ny - 1; }
};

inline Dims dims_of(const Stencil7Spec& s) { return {int(s.nx), int(s.ny), int(s.nz)}; }

// Every rung: dimensions that fit an int, and a number of x-y tiles the
// launch can hold (grid.x up to 2^31 - 1, grid.y up to 65535: checked with
// the smallest tile used, 32 x 8).
inline bool dims_fit(const Stencil7Spec& s) {
  constexpr std::size_t LIMIT = INT_MAX / 2;
  return s.nx <= LIMIT && s.ny <= LIMIT && s.nz <= LIMIT && (s.ny + 7) / 8 <= 65535;
}

// sweeps == 0: out = in, stream-ordered.
inline void copy_grid(const Stencil7Call& call) {
  TESSERA_CUDA(cudaMemcpyAsync(call.out, call.in, grid_bytes(call.spec), cudaMemcpyDeviceToDevice, call.stream));
}

// A rung that makes one pass per sweep: sweep(src, dst) for each.
template <class Sweep>
void run_one_sweep_per_pass(const Stencil7Call& call, Sweep&& sweep) {
  if (call.spec.sweeps == 0) return copy_grid(call);
  ping_pong(call, call.spec.sweeps, [&](int, const void* src, void* dst) { sweep(src, dst); });
}

// f.template operator()<T>() with T the element type.
template <class F>
void with_type(Dtype t, F&& f) {
  if (t == Dtype::f32) f.template operator()<float>();
  else f.template operator()<double>();
}

}  // namespace tessera::stencil7_impl::gpu
