// tessera::conv_forward — the forward pass of a convolutional layer (the
// cross-correlation of deep learning), FP32:
//
//   y[n][m][ho][wo] = sum_{c, kh, kw} w[m][c][kh][kw] * x[n][c][ho*stride - pad + kh][wo*stride - pad + kw]
//
// with x outside the image read as 0 (zero padding).
//
//   tessera::ConvShape s{.n = 64, .c = 64, .h = 56, .w = 56, .m = 64, .k = 3, .pad = 1};
//   tessera::conv_forward(d_x, d_w, d_y, s);                                  // the policy's variant
//   tessera::conv_forward(d_x, d_w, d_y, s, {.stream = st});                  // on stream st
//   tessera::conv_forward(d_x, d_w, d_y, s, {.variant = "cudnn"});            // any ladder rung by name
//
// Layouts: x is NCHW [n, c, h, w], w is MCKK [m, c, k, k], y is NCHW
// [n, m, ho, wo] with ho = (h + 2 pad - k) / stride + 1 (wo alike), all dense
// and row-major (the last index fastest). Square filters, the same padding on
// every side, the same stride along both axes (stride 1 by default).
//
// GPU variants (every variant without the cpu_ prefix) take device pointers
// and only enqueue work on options.stream; scratch (im2col_gemm's unrolled
// input, implicit_gemm's split-k partials, cuDNN's workspace) is allocated
// stream-ordered unless options.workspace holds at least
// conv_forward_workspace_bytes(...). The cudnn variant finds its algorithm
// (cudnnFindConvolutionForwardAlgorithm, FP32 FMA math) on the first call for
// each shape: make that call outside a graph capture. The cpu_ variants,
// reachable by name, take host pointers and run synchronously. The CUDA
// variants index with 32-bit integers: x, w and y must each hold fewer than
// 2^31 elements.
//
// Accuracy: FP32 products and sums (cpu_reference accumulates in double);
// every element within gamma (sum |w||x|) of the exact result,
// docs/convnet.md.
//
// Errors (throw tessera::Error before anything is written, naming the
// argument): a zero dimension or stride, a negative pad, a filter larger than
// the padded image (k > h + 2 pad or k > w + 2 pad), a null pointer, y
// overlapping x or w, memory of the wrong kind for the variant, an unknown
// variant or one that does not support the shape, a workspace too small.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct ConvShape {
  std::size_t n = 1;       // batch
  std::size_t c = 1;       // input channels
  std::size_t h = 1, w = 1;  // input height, width
  std::size_t m = 1;       // output channels (filters)
  std::size_t k = 1;       // filter side
  long long pad = 0;       // zero padding on every side (>= 0)
  std::size_t stride = 1;  // along both axes (>= 1)

  std::size_t out_h() const { return (h + 2 * std::size_t(pad) - k) / stride + 1; }
  std::size_t out_w() const { return (w + 2 * std::size_t(pad) - k) / stride + 1; }
};

struct ConvOptions {
  std::string variant = {};  // empty: the variant the policy picks for this shape
  stream_t stream = nullptr;
  Workspace workspace = {};
};

void conv_forward(const float* x, const float* w, float* y, const ConvShape& shape, const ConvOptions& options = {});

// Scratch bytes the call needs (0 for most variants). Throws for a bad shape
// or an unknown options.variant.
std::size_t conv_forward_workspace_bytes(const ConvShape& shape, const ConvOptions& options = {});

// The name of the variant the public API picks for this shape.
std::string conv_forward_default_variant(const ConvShape& shape);

}  // namespace tessera
