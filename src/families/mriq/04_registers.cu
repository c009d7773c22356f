// MRI-Q step 4: the voxel's values in registers (seed 000 "MRI", Use
// register): x, y, z loaded once, Qr and Qi summed in registers and stored
// once; everything __restrict__. Each sample still comes from global memory
// (kx, ky, kz, phiMag: four warp-uniform loads, broadcast from L1).
// Bottleneck: the precise sincosf on the FMA pipe, and the four loads per
// sample.
#include "families/mriq/common.cuh"
#include "families/mriq/cuda_rungs.hpp"

namespace tessera::mriq_impl {

namespace {

__global__ void registers_kernel(const float* __restrict__ kx, const float* __restrict__ ky,
                                 const float* __restrict__ kz, const float* __restrict__ phi_mag, std::size_t num_k,
                                 const float* __restrict__ x, const float* __restrict__ y,
                                 const float* __restrict__ z, std::size_t num_x, float* __restrict__ q_r,
                                 float* __restrict__ q_i) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= num_x) return;
  const float xn = x[n], yn = y[n], zn = z[n];
  float qr = 0, qi = 0;
  for (std::size_t m = 0; m < num_k; ++m) {
    float s, c;
    sincosf(TWO_PI_F * (kx[m] * xn + ky[m] * yn + kz[m] * zn), &s, &c);
    qr += phi_mag[m] * c;
    qi += phi_mag[m] * s;
  }
  q_r[n] = qr;
  q_i[n] = qi;
}

}  // namespace

void run_registers(const MriqCall& call) {
  const MriqSpec& s = call.spec;
  if (s.num_x == 0) return;
  if (s.num_k == 0) return zero_outputs(call);
  auto* phi_mag = static_cast<float*>(call.workspace);
  launch_phi_mag(call, phi_mag);
  detail::launch("mriq registers_kernel", registers_kernel, dim3(unsigned(detail::div_up(s.num_x, BLOCK))),
                 dim3(BLOCK), 0, call.stream, s.num_x, call.k.kx, call.k.ky, call.k.kz, phi_mag, s.num_k, call.v.x,
                 call.v.y, call.v.z, s.num_x, call.q_r, call.q_i);
}

}  // namespace tessera::mriq_impl
