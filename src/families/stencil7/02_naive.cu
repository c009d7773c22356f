// Stencil7 step 2 — naive: one thread per cell (seed 000 "7 point Stencil",
// the starting point "each thread computes one output"). Each thread reads
// its 7 inputs from global memory: 7 loads per cell, of which L1/L2 catch
// most (neighbouring threads share them), and every thread recomputes its
// (x, y, z) from the block and thread indices. Blocks of 32 x 8 cells in one
// z plane; grid.z walks the planes (strided when nz passes 65535).
// Expected 60-75% of copy for float 512^3 — the x and y neighbours hit L1,
// the z neighbours (a plane, 1 MiB, away) mostly L2, but 7 load
// instructions per cell keep the LSU pipes busy. Measured 63.8% (H100,
// docs/results/stencil7-h100-2026-11-28b.json).
#include "families/stencil7/common.cuh"
#include "families/stencil7/cuda_rungs.hpp"

namespace tessera::stencil7_impl {

namespace {

constexpr int BX = 32;  // a warp along x: one 128-byte float row
constexpr int BY = 8;   // 256 threads per block
constexpr unsigned MAX_GRID_Z = 65535;

template <class T>
__global__ __launch_bounds__(BX* BY) void stencil7_naive(const T* __restrict__ in, T* __restrict__ out, gpu::Dims d,
                                                        T c0, T c1) {
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y = blockIdx.y * BY + threadIdx.y;
  if (x >= d.nx || y >= d.ny) return;
  const std::size_t plane = d.plane();
  for (int z = blockIdx.z; z < d.nz; z += gridDim.z) {
    const std::size_t i = d.at(x, y, z);
    if (z == 0 || z == d.nz - 1 || !d.interior_xy(x, y)) {
      out[i] = in[i];
    } else {
      out[i] = stencil7_impl::stencil_point(c0, c1, in[i], in[i - 1], in[i + 1], in[i - d.nx], in[i + d.nx],
                                             in[i - plane], in[i + plane]);
    }
  }
}

}  // namespace

bool supports_naive(const Stencil7Spec& s) { return gpu::dims_fit(s); }
std::size_t ws_naive(const Stencil7Spec& s) { return ping_pong_bytes(s, s.sweeps); }

void run_naive(const Stencil7Call& call) {
  const Stencil7Spec& s = call.spec;
  const gpu::Dims d = gpu::dims_of(s);
  const dim3 grid(unsigned((s.nx + BX - 1) / BX), unsigned((s.ny + BY - 1) / BY),
                  unsigned(s.nz < MAX_GRID_Z ? s.nz : MAX_GRID_Z));
  gpu::with_type(s.dtype, [&]<class T>() {
    gpu::run_one_sweep_per_pass(call, [&](const void* src, void* dst) {
      detail::launch("stencil7_naive", stencil7_naive<T>, grid, dim3(BX, BY), 0, call.stream, s.cells(),
                     static_cast<const T*>(src), static_cast<T*>(dst), d, T(s.c0), T(s.c1));
    });
  });
}

}  // namespace tessera::stencil7_impl
