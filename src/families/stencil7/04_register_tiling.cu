// Stencil7 step 4 — register tiling along z (seed 000 "7 point Stencil",
// register tiling): the z-pencil thread keeps the previous, current and next
// cells of its column in registers and slides them one plane up per step, so
// a cell costs 5 global loads (the next plane's cell and the 4 x-y
// neighbours) instead of 7: 25% less traffic through L1/L2. Expected 75-85%
// of copy; measured 60.6% (H100, docs/results/stencil7-h100-2026-11-28b.json).
#include "families/stencil7/common.cuh"
#include "families/stencil7/cuda_rungs.hpp"

namespace tessera::stencil7_impl {

namespace {

constexpr int BX = 32;  // a warp along x
constexpr int BY = 8;   // 256 threads per block

template <class T>
__global__ __launch_bounds__(BX* BY) void stencil7_register_tiling(const T* __restrict__ in, T* __restrict__ out,
                                                                  gpu::Dims d, T c0, T c1) {
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y = blockIdx.y * BY + threadIdx.y;
  if (x >= d.nx || y >= d.ny) return;
  const std::size_t plane = d.plane();
  std::size_t i = d.at(x, y, 0);
  if (!d.interior_xy(x, y)) {
    for (int z = 0; z < d.nz; ++z, i += plane) out[i] = in[i];
    return;
  }
  T prev = in[i];
  T cur = in[i + plane];
  out[i] = prev;
  i += plane;
  for (int z = 1; z < d.nz - 1; ++z, i += plane) {
    const T next = in[i + plane];
    out[i] = stencil7_impl::stencil_point(c0, c1, cur, in[i - 1], in[i + 1], in[i - d.nx], in[i + d.nx], prev, next);
    prev = cur;
    cur = next;
  }
  out[i] = cur;
}

}  // namespace

bool supports_register_tiling(const Stencil7Spec& s) { return gpu::dims_fit(s); }
std::size_t ws_register_tiling(const Stencil7Spec& s) { return ping_pong_bytes(s, s.sweeps); }

void run_register_tiling(const Stencil7Call& call) {
  const Stencil7Spec& s = call.spec;
  const gpu::Dims d = gpu::dims_of(s);
  const dim3 grid(unsigned((s.nx + BX - 1) / BX), unsigned((s.ny + BY - 1) / BY));
  gpu::with_type(s.dtype, [&]<class T>() {
    gpu::run_one_sweep_per_pass(call, [&](const void* src, void* dst) {
      detail::launch("stencil7_register_tiling", stencil7_register_tiling<T>, grid, dim3(BX, BY), 0, call.stream,
                     s.cells(), static_cast<const T*>(src), static_cast<T*>(dst), d, T(s.c0), T(s.c1));
    });
  });
}

}  // namespace tessera::stencil7_impl
