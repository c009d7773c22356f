// The kernel of MRI-Q steps 6-10, one template: k-space as an array of
// structures {kx', ky', kz', phiMag} (float4, packed by launch_pack_aos),
// read either from constant memory in chunks (steps 6-8, one launch per
// chunk) or straight from the workspace in global memory (steps 9-11, one
// launch: warp-uniform 16-byte loads broadcast from L1, and no shared
// constant bank, so concurrent calls on different streams are safe; when
// the voxels alone make fewer than SPLIT_BLOCKS blocks, the samples are cut
// into slices along grid.y whose partial sums a second kernel adds in slice
// order: deterministic, and the small problems fill the GPU);
// VOXELS voxels per thread (thread coarsening: one sample load serves
// VOXELS voxels), BLOCK threads apart so that loads and stores stay
// coalesced; samples come in groups of GROUP (4, or 8 for the split), of
// which the first POLY_OF_GROUP take the FMA-pipe polynomial POLY_MODE and
// the rest MUFU_MODE (the MUFU/FMA split).
//
// Included by one .cu per rung: each translation unit gets its own
// constant-memory chunk (internal linkage).
#pragma once

#include <algorithm>

#include "families/mriq/common.cuh"
#include "families/mriq/sincos.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::mriq_impl {

namespace {

__constant__ float4 K_AOS[CHUNK];

// blockIdx.y picks a slice of the samples: [y slice_len, (y + 1) slice_len)
// of `count`; its sums go to q_r/q_i + y * slice_stride (0 with one slice).
template <bool FROM_CONSTANT, int VOXELS, int POLY_OF_GROUP, SincosMode MUFU_MODE, int GROUP, SincosMode POLY_MODE>
__global__ __launch_bounds__(BLOCK) void aos_kernel(const float4* __restrict__ k_global, int count, int slice_len,
                                                    const float* __restrict__ x, const float* __restrict__ y,
                                                    const float* __restrict__ z, std::size_t num_x,
                                                    float* __restrict__ q_r, float* __restrict__ q_i,
                                                    std::size_t slice_stride, bool first) {
  static_assert(GROUP > 0 && SAMPLE_GROUP % GROUP == 0, "counts are whole groups of SAMPLE_GROUP samples");
  static_assert(POLY_OF_GROUP >= 0 && POLY_OF_GROUP <= GROUP, "POLY_OF_GROUP counts samples of a group");
  const std::size_t base = std::size_t(blockIdx.x) * (BLOCK * VOXELS) + threadIdx.x;
  float px[VOXELS], py[VOXELS], pz[VOXELS], qr[VOXELS], qi[VOXELS];
#pragma unroll
  for (int v = 0; v < VOXELS; ++v) {
    const std::size_t n = base + std::size_t(v) * BLOCK;
    const bool in = n < num_x;  // voxels past the end compute on 0 and are not stored
    px[v] = in ? x[n] : 0.f;
    py[v] = in ? y[n] : 0.f;
    pz[v] = in ? z[n] : 0.f;
    qr[v] = 0.f;
    qi[v] = 0.f;
  }
  // count is a multiple of SAMPLE_GROUP (the packed array is zero-padded to whole
  // chunks). Chunks of CHUNK samples are summed in fresh registers, then
  // added to the total (two-level sum; constant-memory launches hold one
  // chunk each).
  const int begin = int(blockIdx.y) * slice_len, end = std::min(count, begin + slice_len);
  for (int c0 = begin; c0 < end; c0 += int(CHUNK)) {
    const int c1 = std::min(end, c0 + int(CHUNK));
    float sr[VOXELS], si[VOXELS];
#pragma unroll
    for (int v = 0; v < VOXELS; ++v) sr[v] = si[v] = 0.f;
    for (int m = c0; m < c1; m += GROUP) {
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const float4 k = FROM_CONSTANT ? K_AOS[m + j] : __ldg(k_global + m + j);
#pragma unroll
        for (int v = 0; v < VOXELS; ++v) {
          const float arg = fmaf(k.z, pz[v], fmaf(k.y, py[v], k.x * px[v]));
          float s, c;
          if (j < POLY_OF_GROUP)
            sincos_of<POLY_MODE>(arg, s, c);
          else
            sincos_of<MUFU_MODE>(arg, s, c);
          sr[v] = fmaf(k.w, c, sr[v]);
          si[v] = fmaf(k.w, s, si[v]);
        }
      }
    }
#pragma unroll
    for (int v = 0; v < VOXELS; ++v) {
      qr[v] += sr[v];
      qi[v] += si[v];
    }
  }
  q_r += blockIdx.y * slice_stride;
  q_i += blockIdx.y * slice_stride;
#pragma unroll
  for (int v = 0; v < VOXELS; ++v) {
    const std::size_t n = base + std::size_t(v) * BLOCK;
    if (n < num_x) {
      q_r[n] = first ? qr[v] : q_r[n] + qr[v];
      q_i[n] = first ? qi[v] : q_i[n] + qi[v];
    }
  }
}

// The host side: pack the samples (the fission's first loop), then one
// launch (global; plus the slices' sum when there are several) or one copy
// + launch per chunk (constant).
template <bool FROM_CONSTANT, int VOXELS, int POLY_OF_GROUP, SincosMode MUFU_MODE, int GROUP = 4,
          SincosMode POLY_MODE = SincosMode::poly>
void run_aos(const MriqCall& call, const char* name) {
  const MriqSpec& s = call.spec;
  if (s.num_x == 0) return;
  if (s.num_k == 0) return zero_outputs(call);
  auto* aos = static_cast<float4*>(call.workspace);
  launch_pack_aos(call, aos, {GROUP, POLY_OF_GROUP, scale_for(POLY_MODE), scale_for(MUFU_MODE)});
  const unsigned voxel_blocks = unsigned(detail::div_up(s.num_x, std::size_t(BLOCK) * VOXELS));
  const auto kernel = aos_kernel<FROM_CONSTANT, VOXELS, POLY_OF_GROUP, MUFU_MODE, GROUP, POLY_MODE>;
  if constexpr (!FROM_CONSTANT) {
    static_assert(VOXELS == VOXELS_PER_THREAD, "sample_slices counts blocks of VOXELS_PER_THREAD voxels a thread");
    const int count = int(round_up(s.num_k, SAMPLE_GROUP));
    const SampleSlices sl = sample_slices(s);
    if (sl.slices == 1) {
      detail::launch(name, kernel, dim3(voxel_blocks), dim3(BLOCK), 0, call.stream, s.num_x, aos, count, count,
                     call.v.x, call.v.y, call.v.z, s.num_x, call.q_r, call.q_i, std::size_t(0), true);
      return;
    }
    float* part = partials_of(call);
    detail::launch(name, kernel, dim3(voxel_blocks, unsigned(sl.slices)), dim3(BLOCK), 0, call.stream, s.num_x, aos,
                   count, sl.slice_len, call.v.x, call.v.y, call.v.z, s.num_x, part, part + sl.slices * s.num_x,
                   s.num_x, true);
    launch_sum_slices(call, part, sl.slices);
  } else {
    for (std::size_t start = 0; start < s.num_k; start += CHUNK) {
      const std::size_t count = round_up(std::min(CHUNK, s.num_k - start), SAMPLE_GROUP);
      TESSERA_CUDA(cudaMemcpyToSymbolAsync(K_AOS, aos + start, count * sizeof(float4), 0, cudaMemcpyDeviceToDevice,
                                           call.stream));
      detail::launch(name, kernel, dim3(voxel_blocks), dim3(BLOCK), 0, call.stream, s.num_x,
                     static_cast<const float4*>(nullptr), int(count), int(count), call.v.x, call.v.y, call.v.z,
                     s.num_x, call.q_r, call.q_i, std::size_t(0), start == 0);
    }
  }
}

}  // namespace

}  // namespace tessera::mriq_impl
