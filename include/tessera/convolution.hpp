// tessera::conv1d / tessera::conv2d — convolution of a float signal or image
// with an odd-sized mask, zero ("ghost") elements outside the input.
//
//   tessera::conv1d(d_in, n, mask, 1025, d_out);                         // the policy's variant
//   tessera::conv2d(d_in, width, height, mask, 5, 5, d_out);             // dense rows
//   tessera::conv2d(d_in, w, h, mask, 9, 9, d_out, {.pitch = 8320});     // pitched rows
//   tessera::conv2d(d_in, w, h, mask, 5, 5, d_out, {.variant = "tiled_input_blocks"});  // any rung by name
//
// The operation (seed 000's P[i] = sum_j M[j] N[i - r + j], in 2D too):
//   out[y][x] = sum_{ky, kx} mask[ky][kx] * in[y - mask_h/2 + ky][x - mask_w/2 + kx]
// with in[..] = 0 outside the image: the mask is applied as written (a
// correlation; flip it for the textbook convolution). 1D is one row.
//
// `in` and `out` are device pointers for the GPU variants (host pointers for
// the cpu_ variants, reachable by name, and for every call in a build or on
// a machine without a GPU); in 2D their rows are options.pitch floats apart
// (0: width). `mask` is always host memory, mask_h rows of mask_w floats:
// the call copies it (it is small) and checks it. conv2d finds on the host
// whether the mask is separable (rank 1 within options.separable_tolerance of
// its largest element) and then runs two fused 1D passes.
//
// Asynchronous: the work is enqueued on options.stream (after a copy of the
// mask from pageable memory, which waits for the stream's earlier work);
// scratch (the device mask, the FFT path's buffers) is allocated
// stream-ordered unless options.workspace holds *_workspace_bytes(...).
//
// Errors throw tessera::Error before anything is enqueued or written: an
// even or zero mask width or height, a mask wider (or taller) than the
// input, a null pointer, a NaN or infinite tap, pitch < width, in and out
// overlapping (the convolution is not in place), memory of the wrong kind
// for the variant, an unknown variant or one that does not support the call
// (the FFT rungs are 1D only, `separable` needs a separable mask).
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct ConvOptions {
  std::size_t pitch = 0;              // conv2d: row pitch of in and out in floats (0: width)
  double separable_tolerance = 1e-6;  // conv2d: max |mask - col x row| / max |mask| to call a mask separable; < 0: never
  std::string variant = {};           // empty: the variant the policy picks
  stream_t stream = nullptr;
  Workspace workspace = {};
};

void conv1d(const float* in, std::size_t n, const float* mask, std::size_t mask_width, float* out,
            const ConvOptions& options = {});

void conv2d(const float* in, std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
            std::size_t mask_h, float* out, const ConvOptions& options = {});

// Scratch bytes a call with these arguments needs (the variant of options,
// or the policy's). Throws for an unknown options.variant.
std::size_t conv1d_workspace_bytes(std::size_t n, std::size_t mask_width, const ConvOptions& options = {});
std::size_t conv2d_workspace_bytes(std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
                                   std::size_t mask_h, const ConvOptions& options = {});

// The name of the variant the public API picks (conv2d: for this mask, which
// may be separable).
std::string conv1d_default_variant(std::size_t n, std::size_t mask_width);
std::string conv2d_default_variant(std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
                                   std::size_t mask_h, const ConvOptions& options = {});

// Whether conv2d treats this mask as separable (rank 1 within `tolerance`).
bool conv_mask_separable(const float* mask, std::size_t mask_w, std::size_t mask_h, double tolerance = 1e-6);

}  // namespace tessera
