// One stencil7 sweep, 16 bytes of x-adjacent cells per thread (float: 4,
// double: 2), for temporal_blocking's passes of one sweep.
//
// Why: one cell per thread (step 2, naive) reached 92% of copy in double but
// 64% in float on the H100 (512^3, docs/results/stencil7-h100-2026-11-28b.json:
// 92.0% and 63.8%): the access pattern is the same, but a float thread has
// half the bytes in flight per load instruction,
// and a one-sweep stencil is bound by bytes in flight (Little's law: ~3 TB/s
// x ~0.7 us of latency is ~2 MB, ~16 KB per SM). Here every load is 16 bytes:
// the centre row, the y and z neighbour rows as whole vectors (L1/L2 catch
// the re-reads, as in naive), and the x neighbours of the vector's two end
// cells from the adjacent lanes by shuffle (a scalar load only at the warp's
// two ends). Per thread: 5 vector loads in flight (80 B) instead of naive's 7
// scalar ones (28 B float), and 4x fewer index computations and boundary tests
// per float cell.
// Predicted: >= 90% of copy for float and double 512^3. Measured on the H100
// (the same file): float 91.3% (0.3905 ms), double 92.7% (0.7689 ms).
#include <cstdint>

#include "families/stencil7/common.cuh"
#include "families/stencil7/vector_sweep.hpp"

namespace tessera::stencil7_impl {

namespace {

constexpr int BX = 32;  // a warp along x: 512 contiguous bytes of a row
constexpr int BY = 8;   // 256 threads per block
constexpr unsigned MAX_GRID_Z = 65535;
constexpr unsigned FULL_WARP = 0xffffffffu;

// The 16-byte vector of T and its cells.
template <class T>
struct Vec;
template <>
struct Vec<float> {
  static constexpr int N = 4;
  struct alignas(16) Cells { float c[4]; };
  __device__ static Cells load(const float* p) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    return {{v.x, v.y, v.z, v.w}};
  }
  __device__ static void store(float* p, const Cells& a) {
    *reinterpret_cast<float4*>(p) = make_float4(a.c[0], a.c[1], a.c[2], a.c[3]);
  }
};
template <>
struct Vec<double> {
  static constexpr int N = 2;
  struct alignas(16) Cells { double c[2]; };
  __device__ static Cells load(const double* p) {
    const double2 v = *reinterpret_cast<const double2*>(p);
    return {{v.x, v.y}};
  }
  __device__ static void store(double* p, const Cells& a) {
    *reinterpret_cast<double2*>(p) = make_double2(a.c[0], a.c[1]);
  }
};

template <class T>
__global__ __launch_bounds__(BX* BY) void stencil7_vector(const T* __restrict__ in, T* __restrict__ out, gpu::Dims d,
                                                         T c0, T c1) {
  using V = Vec<T>;
  constexpr int N = V::N;
  const int x = (blockIdx.x * BX + threadIdx.x) * N;  // first cell of this thread's vector
  const int y = blockIdx.y * BY + threadIdx.y;
  // Threads past the row's end stay for the shuffles (every lane takes part)
  // but load and store nothing. A y past the grid leaves the whole warp.
  if (y >= d.ny) return;
  const bool active = x < d.nx;
  const int lane = threadIdx.x;  // BX = 32: threadIdx.x is the lane
  const std::size_t plane = d.plane();
  const bool inner_y = y > 0 && y < d.ny - 1;
  for (int z = blockIdx.z; z < d.nz; z += gridDim.z) {
    const std::size_t i = d.at(active ? x : 0, y, z);
    const bool inner_yz = inner_y && z > 0 && z < d.nz - 1;
    // Every load is issued before the first use (the shuffles wait on the
    // centre): five 16-byte loads in flight per thread.
    const bool computes = active && inner_yz;
    typename V::Cells c{}, ym{}, yp{}, zm{}, zp{};
    if (active) c = V::load(in + i);
    if (computes) {
      ym = V::load(in + i - d.nx);
      yp = V::load(in + i + d.nx);
      zm = V::load(in + i - plane);
      zp = V::load(in + i + plane);
    }
    // x neighbours of the end cells: global at the warp's two ends (only where
    // the neighbour exists; otherwise the cell is on the boundary and keeps
    // its value), from the lanes beside otherwise.
    T left_end = T(0), right_end = T(0);
    if (computes && lane == 0 && x > 0) left_end = in[i - 1];
    if (computes && lane == BX - 1 && x + N < d.nx) right_end = in[i + N];  // lanes past the row's end: x + N = nx
    const T from_left = __shfl_up_sync(FULL_WARP, c.c[N - 1], 1);
    const T from_right = __shfl_down_sync(FULL_WARP, c.c[0], 1);
    if (!computes) {
      if (active) V::store(out + i, c);
      continue;
    }
    const T left = lane == 0 ? left_end : from_left;
    const T right = lane == BX - 1 ? right_end : from_right;
    typename V::Cells o;
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const T xm = k == 0 ? left : c.c[k - 1];
      const T xp = k == N - 1 ? right : c.c[k + 1];
      const int gx = x + k;
      o.c[k] = (gx > 0 && gx < d.nx - 1)
                   ? stencil7_impl::stencil_point(c0, c1, c.c[k], xm, xp, ym.c[k], yp.c[k], zm.c[k], zp.c[k])
                   : c.c[k];
    }
    V::store(out + i, o);
  }
}

template <class T>
constexpr int cells_per_vector() {
  return sizeof(T) == 4 ? 4 : 2;
}

}  // namespace

bool vector_sweep_fits(const Stencil7Spec& s, const void* src, const void* dst) {
  const std::size_t n = s.dtype == Dtype::f32 ? 4 : 2;
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return s.nx % n == 0 && aligned(src) && aligned(dst) && gpu::dims_fit(s);
}

void launch_vector_sweep(const Stencil7Call& call, const void* src, void* dst) {
  const Stencil7Spec& s = call.spec;
  const gpu::Dims d = gpu::dims_of(s);
  gpu::with_type(s.dtype, [&]<class T>() {
    const std::size_t vectors_x = s.nx / cells_per_vector<T>();
    const dim3 grid(unsigned((vectors_x + BX - 1) / BX), unsigned((s.ny + BY - 1) / BY),
                    unsigned(s.nz < MAX_GRID_Z ? s.nz : MAX_GRID_Z));
    detail::launch("stencil7_vector", stencil7_vector<T>, grid, dim3(BX, BY), 0, call.stream, s.cells(),
                   static_cast<const T*>(src), static_cast<T*>(dst), d, T(s.c0), T(s.c1));
  });
}

}  // namespace tessera::stencil7_impl
