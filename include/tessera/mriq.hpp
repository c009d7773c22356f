// tessera::mri_q — the Q matrix of non-Cartesian MRI reconstruction:
//
//   Q(x_n) = sum_m |phi(k_m)|^2 exp(i 2 pi k_m . x_n)      for every voxel n
//   q_r[n] = sum_m phiMag_m cos(2 pi k_m . x_n),  q_i[n] = sum_m phiMag_m sin(2 pi k_m . x_n)
//   phiMag_m = phi_r[m]^2 + phi_i[m]^2
//
//   tessera::mri_q(kx, ky, kz, phi_r, phi_i, num_k, x, y, z, num_x, q_r, q_i);   // the policy's variant
//   tessera::mri_q(..., q_r, q_i, {.stream = s});                                // on stream s
//   tessera::mri_q(..., q_r, q_i, {.variant = "mufu_intrinsics"});               // any ladder rung by name
//
// k-space coordinates in cycles per unit length, voxel positions in units
// (so k . x is in turns). GPU variants take device (or managed) pointers;
// the cpu_ variants (reachable by name, and the default without a GPU) take
// host pointers and run synchronously after synchronising the stream.
//
// Accuracy: the API's pick (mufu_fma_split) evaluates sin and cos in float,
// 7 pairs in 8 through the special-function unit and 1 in 8 with a short
// polynomial; its error is at most 1e-4 of max|Q| against a double
// evaluation (docs/mriq.md states the measured errors of every
// variant). The cpu_ variants compute in double.
//
// num_k = 0: Q = 0 for every voxel. num_x = 0: nothing to do.
//
// Errors throw tessera::Error before anything is written: a null pointer
// for a non-empty array, an output that overlaps the other output or an
// input, a NaN or infinite input (naming the array and the index: with
// options.check_inputs, the default; on the GPU that scan synchronises the
// stream once), memory of the wrong kind for the variant, an unknown
// variant, a workspace that is too small.
//
// Scratch: GPU variants need mri_q_workspace_bytes(...) bytes (16 per
// sample, rounded up to 2048 samples), allocated stream-ordered unless
// options.workspace is given. The constant-memory rungs (constant_chunks,
// aos_constant, coarsened, mufu_intrinsics) share one constant bank per
// process: do not run them on two streams at once. The default variant
// reads global memory only.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct MriqOptions {
  // Scan every input for NaN and infinity before the call (an error names
  // the array and index). On a GPU the scan is a small kernel and one
  // stream synchronisation: set false for a fully asynchronous,
  // graph-capturable call on inputs known to be finite.
  bool check_inputs = true;
  std::string variant = {};  // empty: the variant the policy picks
  stream_t stream = nullptr;
  Workspace workspace = {};
};

void mri_q(const float* kx, const float* ky, const float* kz, const float* phi_r, const float* phi_i,
           std::size_t num_k, const float* x, const float* y, const float* z, std::size_t num_x, float* q_r,
           float* q_i, const MriqOptions& options = {});

// Scratch bytes a call with these arguments needs (the variant's). Throws
// for an unknown options.variant.
std::size_t mri_q_workspace_bytes(std::size_t num_k, std::size_t num_x, const MriqOptions& options = {});

// The name of the variant the public API picks for these arguments.
std::string mri_q_default_variant(std::size_t num_k, std::size_t num_x);

}  // namespace tessera
