// Stencil7 step 5 — shared-memory tiling of the current plane (seed 000
// "7 point Stencil", shared memory tiling): on top of step 4's registers, the
// block stages its 32 x 16 cells of the current plane in shared memory, so
// the 4 x-y neighbours of a cell come from shared memory when they are in
// the tile. The halo cells (the neighbours just outside the tile) are read
// from global memory, where the neighbouring block's loads left them in L2
// (the seed's "halo through L2", as convolution tiling strategy 3): one
// global load per cell instead of five, at the cost of divergent edge threads
// and two barriers per plane. Expected 80-90% of copy; measured 65.8% (H100,
// docs/results/stencil7-h100-2026-11-28b.json).
#include "families/stencil7/common.cuh"
#include "families/stencil7/cuda_rungs.hpp"

namespace tessera::stencil7_impl {

namespace {

constexpr int BX = 32;  // a warp along x
constexpr int BY = 16;  // 512 threads: the tile's halo is 2 * (32 + 16) of 512 cells

template <class T>
__global__ __launch_bounds__(BX* BY) void stencil7_shared_tiling(const T* __restrict__ in, T* __restrict__ out,
                                                                gpu::Dims d, T c0, T c1) {
  __shared__ T tile[BY][BX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX + tx;
  const int y = blockIdx.y * BY + ty;
  // Threads past the grid's edge stay for the barriers.
  const bool in_grid = x < d.nx && y < d.ny;
  const bool interior = in_grid && d.interior_xy(x, y);
  const std::size_t plane = d.plane();
  std::size_t i = in_grid ? d.at(x, y, 0) : 0;
  T prev{}, cur{}, next{};
  if (in_grid) {
    prev = in[i];
    cur = in[i + plane];
    out[i] = prev;
  }
  for (int z = 1; z < d.nz - 1; ++z) {
    i += plane;
    if (in_grid) next = in[i + plane];
    __syncthreads();  // the previous plane's readers are done with the tile
    tile[ty][tx] = cur;
    __syncthreads();
    if (interior) {
      const T xm = tx > 0 ? tile[ty][tx - 1] : in[i - 1];
      const T xp = tx < BX - 1 ? tile[ty][tx + 1] : in[i + 1];
      const T ym = ty > 0 ? tile[ty - 1][tx] : in[i - d.nx];
      const T yp = ty < BY - 1 ? tile[ty + 1][tx] : in[i + d.nx];
      out[i] = stencil7_impl::stencil_point(c0, c1, cur, xm, xp, ym, yp, prev, next);
    } else if (in_grid) {
      out[i] = cur;
    }
    prev = cur;
    cur = next;
  }
  if (in_grid) out[i + plane] = cur;
}

}  // namespace

bool supports_shared_tiling(const Stencil7Spec& s) { return gpu::dims_fit(s); }
std::size_t ws_shared_tiling(const Stencil7Spec& s) { return ping_pong_bytes(s, s.sweeps); }

void run_shared_tiling(const Stencil7Call& call) {
  const Stencil7Spec& s = call.spec;
  const gpu::Dims d = gpu::dims_of(s);
  const dim3 grid(unsigned((s.nx + BX - 1) / BX), unsigned((s.ny + BY - 1) / BY));
  gpu::with_type(s.dtype, [&]<class T>() {
    gpu::run_one_sweep_per_pass(call, [&](const void* src, void* dst) {
      detail::launch("stencil7_shared_tiling", stencil7_shared_tiling<T>, grid, dim3(BX, BY), 0, call.stream,
                     s.cells(), static_cast<const T*>(src), static_cast<T*>(dst), d, T(s.c0), T(s.c1));
    });
  });
}

}  // namespace tessera::stencil7_impl
