// MRI-Q step 3: loop fission and interchange, a thread per voxel (seed 000
// "MRI", idea 2 and its fix). The |phi|^2 loop is split off into its own
// kernel (phi_mag_kernel, into the workspace); the remaining sample loop is
// interchanged with the voxel loop, so each thread owns one voxel: a gather,
// no atomics. Still as the seed writes it before "use register": x[n],
// y[n], z[n] and Q[n] are read and Q[n] written in global memory on every
// sample (nothing is __restrict__, so the compiler must assume the stores
// may change the inputs). Bottleneck: the load/store traffic of each
// iteration and the precise sincosf (tens of FMA-pipe instructions).
#include "families/mriq/common.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

namespace {

__global__ void fission_gather_kernel(KSpace k, const float* phi_mag, std::size_t num_k, Voxels v,
                                      std::size_t num_x, float* q_r, float* q_i) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= num_x) return;
  for (std::size_t m = 0; m < num_k; ++m) {
    float s, c;
    sincosf(TWO_PI_F * (k.kx[m] * v.x[n] + k.ky[m] * v.y[n] + k.kz[m] * v.z[n]), &s, &c);
    q_r[n] += phi_mag[m] * c;
    q_i[n] += phi_mag[m] * s;
  }
}

}  // namespace

void run_fission_gather(const MriqCall& call) {
  zero_outputs(call);
  const MriqSpec& s = call.spec;
  if (s.num_k == 0 || s.num_x == 0) return;
  auto* phi_mag = static_cast<float*>(call.workspace);
  launch_phi_mag(call, phi_mag);
  detail::launch("mriq fission_gather_kernel", fission_gather_kernel, dim3(unsigned(detail::div_up(s.num_x, BLOCK))),
                 dim3(BLOCK), 0, call.stream, s.num_x, call.k, phi_mag, s.num_k, call.v, s.num_x, call.q_r,
                 call.q_i);
}

}  // namespace tessera::mriq_impl
