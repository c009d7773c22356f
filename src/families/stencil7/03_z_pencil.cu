// Stencil7 step 3 — z-pencil coarsening (seed 000 "7 point Stencil", thread
// granularity): a thread computes the whole column of cells along z at its
// (x, y). Its (x, y) and interior test are computed once, the index steps by
// one plane, and there are nz times fewer threads and blocks to schedule.
// Still 7 global loads per cell. Expected about step 2, 65-80% of copy: the
// saved index arithmetic is cheap next to the loads, and each thread's loads
// along z are independent, so they stay in flight. Measured 53.1%, below
// step 2 (H100, docs/results/stencil7-h100-2026-11-28b.json): not profiled.
#include "families/stencil7/common.cuh"
#include "families/stencil7/cuda_rungs.hpp"

namespace tessera::stencil7_impl {

namespace {

constexpr int BX = 32;  // a warp along x
constexpr int BY = 8;   // 256 threads; a 512^2 plane is 1,024 blocks, enough for 132 SMs

template <class T>
__global__ __launch_bounds__(BX* BY) void stencil7_z_pencil(const T* __restrict__ in, T* __restrict__ out,
                                                           gpu::Dims d, T c0, T c1) {
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y = blockIdx.y * BY + threadIdx.y;
  if (x >= d.nx || y >= d.ny) return;
  const std::size_t plane = d.plane();
  std::size_t i = d.at(x, y, 0);
  if (!d.interior_xy(x, y)) {  // a boundary column: copied whole
    for (int z = 0; z < d.nz; ++z, i += plane) out[i] = in[i];
    return;
  }
  out[i] = in[i];
  i += plane;
  for (int z = 1; z < d.nz - 1; ++z, i += plane)
    out[i] = stencil7_impl::stencil_point(c0, c1, in[i], in[i - 1], in[i + 1], in[i - d.nx], in[i + d.nx],
                                           in[i - plane], in[i + plane]);
  out[i] = in[i];
}

}  // namespace

bool supports_z_pencil(const Stencil7Spec& s) { return gpu::dims_fit(s); }
std::size_t ws_z_pencil(const Stencil7Spec& s) { return ping_pong_bytes(s, s.sweeps); }

void run_z_pencil(const Stencil7Call& call) {
  const Stencil7Spec& s = call.spec;
  const gpu::Dims d = gpu::dims_of(s);
  const dim3 grid(unsigned((s.nx + BX - 1) / BX), unsigned((s.ny + BY - 1) / BY));
  gpu::with_type(s.dtype, [&]<class T>() {
    gpu::run_one_sweep_per_pass(call, [&](const void* src, void* dst) {
      detail::launch("stencil7_z_pencil", stencil7_z_pencil<T>, grid, dim3(BX, BY), 0, call.stream, s.cells(),
                     static_cast<const T*>(src), static_cast<T*>(dst), d, T(s.c0), T(s.c1));
    });
  });
}

}  // namespace tessera::stencil7_impl
