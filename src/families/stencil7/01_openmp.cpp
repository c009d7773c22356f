// Stencil7 step 1: OpenMP. Each sweep splits the z planes among the threads
// (static chunks: neighbouring planes stay on one core's cache); the sweeps
// stay in order, the implicit barrier between them is the Jacobi dependence.
#include <omp.h>

#include <cstdint>
#include <cstring>

#include "families/stencil7/cpu_rungs.hpp"
#include "families/stencil7/sweep_plan.hpp"

namespace tessera::stencil7_impl::cpu {

namespace {

template <class T>
void sweep_parallel(const T* src, T* dst, const Stencil7Spec& s) {
  const auto nz = static_cast<std::int64_t>(s.nz);
#pragma omp parallel for schedule(static)
  for (std::int64_t z = 0; z < nz; ++z) sweep_planes(src, dst, s, std::size_t(z), std::size_t(z) + 1);
}

template <class T>
void run_parallel(const Stencil7Call& call) {
  const Stencil7Spec& s = call.spec;
  if (s.sweeps == 0) {
    std::memcpy(call.out, call.in, grid_bytes(s));
    return;
  }
  ping_pong(call, s.sweeps, [&](int, const void* src, void* dst) {
    sweep_parallel(static_cast<const T*>(src), static_cast<T*>(dst), s);
  });
}

}  // namespace

void run_openmp(const Stencil7Call& call) {
  if (call.spec.dtype == Dtype::f32) run_parallel<float>(call);
  else run_parallel<double>(call);
}

}  // namespace tessera::stencil7_impl::cpu
