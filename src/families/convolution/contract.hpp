// The convolution family's internal contract: what one call carries and what
// one registered variant provides. 1D is the 2D case with one row and a
// one-row mask, so both harness patterns ("conv1d", "conv2d") run the same
// rungs; each has its own table (ladder.cpp) listing the rungs that fit it.
//
// The operation (seed 000 "Conv": P[i] = sum_j M[j] * N[i - r + j], the ghost
// elements outside the input being zero):
//   out[y][x] = sum_{ky < mask_h, kx < mask_w} mask[ky][kx] * in[y - ry + ky][x - rx + kx]
// with rx = mask_w / 2, ry = mask_h / 2 and in[..] = 0 outside the image.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::convolution_impl {

// Everything but the data. Rows are `pitch` floats apart in both the input
// and the output (pitch >= width); the mask is mask_h x mask_w, row-major,
// both odd. `separable`: the mask is (within the caller's tolerance) the
// outer product col_taps (mask_h) x row_taps (mask_w), found on the host
// (separable.hpp).
struct ConvSpec {
  std::size_t width = 0;
  std::size_t height = 1;
  std::size_t pitch = 0;
  std::size_t mask_w = 1;
  std::size_t mask_h = 1;
  bool separable = false;

  std::size_t rx() const { return mask_w / 2; }
  std::size_t ry() const { return mask_h / 2; }
  std::size_t outputs() const { return width * height; }
  std::size_t taps() const { return mask_w * mask_h; }
  bool one_d() const { return height == 1 && mask_h == 1; }
};

// One call. Pointers are device pointers for CUDA variants and host pointers
// for CPU variants (mask, row_taps and col_taps included: the API and the
// harness copy the host mask to the device beforehand). row_taps / col_taps
// are null unless spec.separable. host_mask is the same mask in host memory
// for every variant (rungs that pass the taps as kernel parameters read it
// at launch). A CUDA run only enqueues work on `stream`
// (no allocation, no host synchronisation: graph-capturable once prepare()
// has run); scratch comes from `workspace` (workspace_bytes(spec) of it).
struct ConvCall {
  ConvSpec spec;
  const float* in;
  float* out;
  const float* mask;
  const float* host_mask;
  const float* row_taps;
  const float* col_taps;
  void* workspace;
  stream_t stream;
};

struct ConvVariant {
  VariantInfo info;
  bool (*supports)(const ConvSpec&);
  std::size_t (*workspace_bytes)(const ConvSpec&);
  // Outside timed regions and graph captures: creates what the variant keeps
  // (cuFFT plans). nullptr when there is nothing to prepare.
  void (*prepare)(const ConvSpec&);
  void (*run)(const ConvCall&);
};

// The two ladders (ladder.cpp): conv1d's rungs and conv2d's, in ladder order.
ladder::Ladder<ConvVariant>& conv1d_ladder();
ladder::Ladder<ConvVariant>& conv2d_ladder();
inline ladder::Ladder<ConvVariant>& ladder_for(bool one_d) { return one_d ? conv1d_ladder() : conv2d_ladder(); }

}  // namespace tessera::convolution_impl
