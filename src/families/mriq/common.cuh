// What the CUDA rungs of the MRI-Q ladder share: the block size, the k-space
// chunk, the fission kernels that precompute |phi|^2 (and the array of
// structures the later rungs read), and num_k = 0.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "families/mriq/contract.hpp"
#include "tessera/blocks/launch.cuh"

namespace tessera::mriq_impl {

// 256 threads: 8 warps, 8 blocks fill an sm_90 SM's 2048 thread slots.
constexpr int BLOCK = 256;
// Samples per k-space chunk: 2048 float4 = 32 KiB of constant memory (half
// the 64 KiB bank, so the SoA rung's four 8 KiB arrays fit as well). The
// global-memory rungs sum each chunk in fresh registers before adding it to
// the voxel's total: a two-level sum, so a float Q over 262,144 samples
// keeps its rounding error near sqrt(2048) + sqrt(128) ulps instead of
// sqrt(262144).
constexpr std::size_t CHUNK = 2048;
// Voxels per thread of the coarsened rungs (steps 7-11), BLOCK apart.
constexpr int VOXELS_PER_THREAD = 4;

constexpr std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

// The AoS kernels take samples in groups (4, or 8 for the split's 1-in-8
// mix); counts and slices are whole groups of the largest, SAMPLE_GROUP
// (the packed array is zero-padded to whole chunks, so the extra samples
// are zeros and add nothing).
constexpr std::size_t SAMPLE_GROUP = 8;
static_assert(CHUNK % SAMPLE_GROUP == 0, "chunks are whole sample groups");

// Step 03-05's workspace: phiMag, one float per sample.
inline std::size_t ws_phi_mag(const MriqSpec& s) { return s.num_k * sizeof(float); }
// Step 06-11's: {kx', ky', kz', phiMag} per sample, padded with zero
// samples (phiMag 0: they add nothing) to a whole number of chunks.
inline std::size_t ws_aos(const MriqSpec& s) { return round_up(s.num_k, CHUNK) * sizeof(float4); }

// Steps 9-11 cut the samples into slices (grid.y) when the voxels alone,
// 4 per thread, make fewer than SPLIT_BLOCKS blocks: 1024 blocks of 256 are
// 7.8 per SM on an H100 (5 resident at the split kernel's 48 registers), so
// the last blocks leave little of the GPU idle. A function of the shape
// only, so the workspace is known before a device is. Slices are whole
// groups of SAMPLE_GROUP samples, at least MIN_SLICE.
constexpr std::size_t SPLIT_BLOCKS = 1024;
constexpr std::size_t MIN_SLICE = 256;
struct SampleSlices {
  std::size_t slices;
  int slice_len;  // samples per slice, a multiple of SAMPLE_GROUP
};
inline SampleSlices sample_slices(const MriqSpec& s) {
  const std::size_t count = round_up(s.num_k, SAMPLE_GROUP);
  if (count == 0) return {1, 0};  // num_k = 0: no slices to cut (the rungs write zeros)
  const std::size_t per_block = std::size_t(BLOCK) * VOXELS_PER_THREAD;
  const std::size_t voxel_blocks = std::max<std::size_t>(1, (s.num_x + per_block - 1) / per_block);
  std::size_t want = voxel_blocks >= SPLIT_BLOCKS ? 1 : (SPLIT_BLOCKS + voxel_blocks - 1) / voxel_blocks;
  want = std::max<std::size_t>(1, std::min(want, count / MIN_SLICE));
  const std::size_t len = round_up((count + want - 1) / want, SAMPLE_GROUP);
  return {(count + len - 1) / len, int(len)};
}
// The workspace of steps 9-11: the packed samples, then the slices' partial
// sums (real parts of every slice, then imaginary parts) when there are
// several.
inline std::size_t ws_aos_split(const MriqSpec& s) {
  const std::size_t slices = sample_slices(s).slices;
  return ws_aos(s) + (slices > 1 ? 2 * slices * s.num_x * sizeof(float) : 0);
}
inline float* partials_of(const MriqCall& c) {
  return reinterpret_cast<float*>(static_cast<char*>(c.workspace) + ws_aos(c.spec));
}
// Q[n] = sum over slices s, in order, of part[s * num_x + n] (and the
// imaginary parts after the real ones).
void launch_sum_slices(const MriqCall& call, const float* part, std::size_t slices);

// Q = 0 for every voxel (num_k = 0, and the accumulating rungs' start).
void zero_outputs(const MriqCall& call);

// The fission's first loop (seed 000 "MRI", loop fission): phiMag[m] =
// phi_r[m]^2 + phi_i[m]^2 into the workspace.
void launch_phi_mag(const MriqCall& call, float* phi_mag);

// How the packed k coordinates are scaled, sample by sample: of every group
// of `group` samples, the first `poly_of_group` are scaled by `poly_scale`,
// the rest by `mufu_scale` (2 pi: the argument in radians; 1: in turns).
// The rungs' kernels know which sample is which.
struct PackScale {
  int group = 4;
  int poly_of_group = 0;
  float poly_scale = 1.0f;
  float mufu_scale = 1.0f;
};
// The fission's first loop for the AoS rungs: float4 {s kx, s ky, s kz,
// phiMag} per sample, zero samples up to ws_aos's padding.
void launch_pack_aos(const MriqCall& call, float4* aos, PackScale scale);

// 2 pi in float, the radians scale.
constexpr float TWO_PI_F = 6.28318530717958647692f;

}  // namespace tessera::mriq_impl
