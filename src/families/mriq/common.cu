// The MRI-Q CUDA rungs' shared kernels: |phi|^2 (the fission's first loop),
// the packed array of structures, and zeroed outputs.
#include <algorithm>

#include "families/mriq/common.cuh"
#include "families/mriq/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::mriq_impl {

namespace {

__global__ void phi_mag_kernel(const float* __restrict__ phi_r, const float* __restrict__ phi_i,
                               float* __restrict__ phi_mag, std::size_t num_k) {
  const std::size_t m = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m < num_k) phi_mag[m] = phi_r[m] * phi_r[m] + phi_i[m] * phi_i[m];
}

__global__ void pack_aos_kernel(KSpace k, std::size_t num_k, std::size_t padded, float4* __restrict__ aos,
                                PackScale scale) {
  const std::size_t m = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= padded) return;
  if (m >= num_k) {
    aos[m] = make_float4(0.f, 0.f, 0.f, 0.f);
    return;
  }
  const float s = int(m % unsigned(scale.group)) < scale.poly_of_group ? scale.poly_scale : scale.mufu_scale;
  const float pr = k.phi_r[m], pi = k.phi_i[m];
  aos[m] = make_float4(s * k.kx[m], s * k.ky[m], s * k.kz[m], pr * pr + pi * pi);
}

}  // namespace

void zero_outputs(const MriqCall& call) {
  const std::size_t bytes = call.spec.num_x * sizeof(float);
  TESSERA_CUDA(cudaMemsetAsync(call.q_r, 0, bytes, call.stream));
  TESSERA_CUDA(cudaMemsetAsync(call.q_i, 0, bytes, call.stream));
}

void launch_phi_mag(const MriqCall& call, float* phi_mag) {
  const std::size_t n = call.spec.num_k;
  detail::launch("mriq phi_mag_kernel", phi_mag_kernel, dim3(unsigned(detail::div_up(n, BLOCK))), dim3(BLOCK), 0,
                 call.stream, n, call.k.phi_r, call.k.phi_i, phi_mag, n);
}

void launch_pack_aos(const MriqCall& call, float4* aos, PackScale scale) {
  const std::size_t padded = round_up(call.spec.num_k, CHUNK);
  detail::launch("mriq pack_aos_kernel", pack_aos_kernel, dim3(unsigned(detail::div_up(padded, BLOCK))), dim3(BLOCK),
                 0, call.stream, padded, call.k, call.spec.num_k, padded, aos, scale);
}

}  // namespace tessera::mriq_impl

namespace tessera::mriq_impl {

std::size_t ws_none(const MriqSpec&) { return 0; }
std::size_t ws_phi_mag_bytes(const MriqSpec& s) { return ws_phi_mag(s); }
std::size_t ws_aos_bytes(const MriqSpec& s) { return ws_aos(s); }
std::size_t ws_aos_split_bytes(const MriqSpec& s) { return ws_aos_split(s); }

}  // namespace tessera::mriq_impl

namespace tessera::mriq_impl {

namespace {

__global__ void first_nonfinite_kernel(const float* __restrict__ data, std::size_t n, unsigned long long* first) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (!isfinite(data[i])) atomicMin(first, static_cast<unsigned long long>(i));
}

}  // namespace

void launch_first_nonfinite(const float* data, std::size_t n, unsigned long long* first, stream_t stream) {
  // A grid-stride loop over at most 1024 blocks: the scan reads each input
  // once, far below the cost of the O(num_k x num_x) computation.
  const unsigned blocks = unsigned(std::min<std::size_t>(detail::div_up(n, BLOCK), 1024));
  detail::launch("mriq first_nonfinite_kernel", first_nonfinite_kernel, dim3(blocks), dim3(BLOCK), 0, stream, n, data,
                 n, first);
}

}  // namespace tessera::mriq_impl

namespace tessera::mriq_impl {

namespace {

__global__ void sum_slices_kernel(const float* __restrict__ part, std::size_t slices, std::size_t num_x,
                                  float* __restrict__ q_r, float* __restrict__ q_i) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= num_x) return;
  float r = 0, i = 0;
  for (std::size_t s = 0; s < slices; ++s) {
    r += part[s * num_x + n];
    i += part[(slices + s) * num_x + n];
  }
  q_r[n] = r;
  q_i[n] = i;
}

}  // namespace

void launch_sum_slices(const MriqCall& call, const float* part, std::size_t slices) {
  const std::size_t n = call.spec.num_x;
  detail::launch("mriq sum_slices_kernel", sum_slices_kernel, dim3(unsigned(detail::div_up(n, BLOCK))), dim3(BLOCK),
                 0, call.stream, n, part, slices, n, call.q_r, call.q_i);
}

}  // namespace tessera::mriq_impl
