// MRI-Q step 2: one thread per k-space sample, scattering into every voxel
// with atomics (seed 000 "MRI", Map to GPU threads, idea 1: the bad
// example). Each thread computes its own |phi|^2 and walks all voxels; the
// whole warp adds to the same Q[n] at the same moment, so every atomicAdd of
// a warp serialises at one L2 address: 2 x num_k x num_x atomics, most of
// them contended. Bottleneck: L2 atomic throughput, orders of magnitude
// below the MUFU ceiling. Precise sincosf; float atomics in an order that
// changes from run to run (not deterministic).
#include "families/mriq/common.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

namespace {

__global__ void scatter_atomics_kernel(KSpace k, std::size_t num_k, Voxels v, std::size_t num_x, float* q_r,
                                       float* q_i) {
  const std::size_t m = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= num_k) return;
  const float mag = k.phi_r[m] * k.phi_r[m] + k.phi_i[m] * k.phi_i[m];
  const float kx = TWO_PI_F * k.kx[m], ky = TWO_PI_F * k.ky[m], kz = TWO_PI_F * k.kz[m];
  for (std::size_t n = 0; n < num_x; ++n) {
    float s, c;
    sincosf(kx * v.x[n] + ky * v.y[n] + kz * v.z[n], &s, &c);
    atomicAdd(q_r + n, mag * c);
    atomicAdd(q_i + n, mag * s);
  }
}

}  // namespace

void run_scatter_atomics(const MriqCall& call) {
  zero_outputs(call);
  const std::size_t n = call.spec.num_k;
  if (n == 0 || call.spec.num_x == 0) return;
  detail::launch("mriq scatter_atomics_kernel", scatter_atomics_kernel, dim3(unsigned(detail::div_up(n, BLOCK))),
                 dim3(BLOCK), 0, call.stream, n, call.k, n, call.v, call.spec.num_x, call.q_r, call.q_i);
}

}  // namespace tessera::mriq_impl
