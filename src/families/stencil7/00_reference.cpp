// Stencil7 step 0: the definition (seed 000 "7 point Stencil"), serial. The
// harness's reference answer is the same loop in double (problem.cpp).
#include <cstring>

#include "families/stencil7/cpu_rungs.hpp"
#include "families/stencil7/point.hpp"
#include "families/stencil7/sweep_plan.hpp"

namespace tessera::stencil7_impl::cpu {

template <class T>
void sweep_planes(const T* src, T* dst, const Stencil7Spec& s, std::size_t z_begin, std::size_t z_end) {
  const std::size_t nx = s.nx, ny = s.ny, nz = s.nz, plane = nx * ny;
  const T c0 = static_cast<T>(s.c0), c1 = static_cast<T>(s.c1);
  for (std::size_t z = z_begin; z < z_end; ++z) {
    const std::size_t base = z * plane;
    if (z == 0 || z == nz - 1) {  // a boundary plane: copied whole
      std::memcpy(dst + base, src + base, plane * sizeof(T));
      continue;
    }
    for (std::size_t y = 0; y < ny; ++y) {
      const std::size_t row = base + y * nx;
      if (y == 0 || y == ny - 1) {
        std::memcpy(dst + row, src + row, nx * sizeof(T));
        continue;
      }
      dst[row] = src[row];
      for (std::size_t x = 1; x + 1 < nx; ++x) {
        const std::size_t i = row + x;
        dst[i] = stencil_point(c0, c1, src[i], src[i - 1], src[i + 1], src[i - nx], src[i + nx], src[i - plane],
                               src[i + plane]);
      }
      dst[row + nx - 1] = src[row + nx - 1];
    }
  }
}

template void sweep_planes<float>(const float*, float*, const Stencil7Spec&, std::size_t, std::size_t);
template void sweep_planes<double>(const double*, double*, const Stencil7Spec&, std::size_t, std::size_t);

std::size_t workspace_bytes(const Stencil7Spec& spec) { return ping_pong_bytes(spec, spec.sweeps); }

namespace {

template <class T>
void run_serial(const Stencil7Call& call) {
  const Stencil7Spec& s = call.spec;
  if (s.sweeps == 0) {
    std::memcpy(call.out, call.in, grid_bytes(s));
    return;
  }
  ping_pong(call, s.sweeps, [&](int, const void* src, void* dst) {
    sweep_planes(static_cast<const T*>(src), static_cast<T*>(dst), s, 0, s.nz);
  });
}

}  // namespace

void run_reference(const Stencil7Call& call) {
  if (call.spec.dtype == Dtype::f32) run_serial<float>(call);
  else run_serial<double>(call);
}

}  // namespace tessera::stencil7_impl::cpu
