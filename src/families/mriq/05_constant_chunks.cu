// MRI-Q step 5: k-space in constant memory, in chunks (seed 000 "MRI",
// Constant cache): kx, ky, kz and phiMag of CHUNK samples are copied into
// four __constant__ arrays (structure of arrays, 32 KiB), one kernel per
// chunk, each adding its chunk to Q. A warp reads the same sample at the
// same time: the constant cache broadcasts it, no L1 traffic. The voxel's
// values stay in registers; each chunk's sum starts from zero in registers
// and is added to Q once (a two-level sum). Bottleneck: the precise sincosf.
//
// The constant bank is one per process: calls of this rung on two streams
// at once would overwrite each other's chunk (docs/mriq.md).
#include "families/mriq/common.cuh"
#include "families/mriq/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::mriq_impl {

namespace {

__constant__ float K_X[CHUNK], K_Y[CHUNK], K_Z[CHUNK], K_MAG[CHUNK];

__global__ void constant_chunk_kernel(int count, const float* __restrict__ x, const float* __restrict__ y,
                                      const float* __restrict__ z, std::size_t num_x, float* __restrict__ q_r,
                                      float* __restrict__ q_i, bool first) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= num_x) return;
  const float xn = x[n], yn = y[n], zn = z[n];
  float qr = 0, qi = 0;
  for (int m = 0; m < count; ++m) {
    float s, c;
    sincosf(TWO_PI_F * (K_X[m] * xn + K_Y[m] * yn + K_Z[m] * zn), &s, &c);
    qr += K_MAG[m] * c;
    qi += K_MAG[m] * s;
  }
  q_r[n] = first ? qr : q_r[n] + qr;
  q_i[n] = first ? qi : q_i[n] + qi;
}

void copy_chunk(const float* symbol_src, const void* symbol, std::size_t offset, std::size_t count, cudaStream_t s) {
  TESSERA_CUDA(cudaMemcpyToSymbolAsync(symbol, symbol_src + offset, count * sizeof(float), 0,
                                       cudaMemcpyDeviceToDevice, s));
}

}  // namespace

void run_constant_chunks(const MriqCall& call) {
  const MriqSpec& s = call.spec;
  if (s.num_x == 0) return;
  if (s.num_k == 0) return zero_outputs(call);
  auto* phi_mag = static_cast<float*>(call.workspace);
  launch_phi_mag(call, phi_mag);
  for (std::size_t start = 0; start < s.num_k; start += CHUNK) {
    const std::size_t count = std::min(CHUNK, s.num_k - start);
    copy_chunk(call.k.kx, K_X, start, count, call.stream);
    copy_chunk(call.k.ky, K_Y, start, count, call.stream);
    copy_chunk(call.k.kz, K_Z, start, count, call.stream);
    copy_chunk(phi_mag, K_MAG, start, count, call.stream);
    detail::launch("mriq constant_chunk_kernel", constant_chunk_kernel, dim3(unsigned(detail::div_up(s.num_x, BLOCK))),
                   dim3(BLOCK), 0, call.stream, s.num_x, int(count), call.v.x, call.v.y, call.v.z, s.num_x, call.q_r,
                   call.q_i, start == 0);
  }
}

}  // namespace tessera::mriq_impl
