// tessera::moving_average — a weighted moving average (a 1-D filter with an
// odd window) of an array.
//
//   const std::vector<float> box(1001, 1.0f / 1001);
//   tessera::moving_average(d_x, n, d_y, box);                               // the policy's variant
//   tessera::moving_average(d_x, n, d_y, std::span(w3), {.edge = tessera::Edge::clamp});
//   tessera::moving_average(d_x, n, d_y, box, {.variant = "shared_window", .stream = s});
//
// out[i] = sum_{j < w} weights[j] * in[i + j - w/2] for every i < n (the
// output has the input's length). Samples outside [0, n) follow
// options.edge: Edge::zero reads them as 0, Edge::clamp as the nearest end
// sample (in[0] on the left, in[n-1] on the right).
//
// Types: float and double (every variant takes float; the seed's 3-point
// rungs, the global running sum, the float-accumulated tiled one and the
// segmented one take float only). Weights are host memory, `w` values of the element type;
// w must be odd, at least 1 and at most n. When every weight is the same
// (a box filter) the wide-window variants compute a running sum instead of
// w products per sample; which variant the API picks for which w is
// policy.hpp's table (docs/moving_average.md).
//
// Asynchronous on options.stream for GPU variants (device or managed
// pointers); cpu_ variants take host pointers and run synchronously after
// synchronising the stream. Scratch (the weights on the device and, for the
// global running sum, the prefix) is allocated stream-ordered and freed when
// the call returns, unless options.workspace holds
// moving_average_workspace_bytes<T>(n, w, options) bytes.
//
// Not in place: `in` and `out` must not overlap (every variant reads
// neighbours of a sample after other threads may have written it).
// Errors throw tessera::Error before anything is written, naming the
// argument and its value: an even or zero w, w > n, a null pointer, a NaN or
// infinite weight, overlapping in and out, memory of the wrong kind for the
// variant, an unknown variant or one that does not support the call (the
// seed's 3-point rungs take w = 3 only, the running sums uniform weights only).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

// What the window reads past either end of the input.
enum class Edge {
  zero,   // samples outside [0, n) are 0
  clamp,  // samples outside [0, n) repeat the nearest end sample
};

struct MovingAverageOptions {
  Edge edge = Edge::zero;
  std::string variant = {};  // empty: the variant the policy picks for this w and these weights
  stream_t stream = nullptr;
  Workspace workspace = {};  // optional scratch of moving_average_workspace_bytes<T>(n, w, options) bytes
};

// T: float or double.
template <class T>
void moving_average(const T* in, std::size_t n, T* out, std::span<const T> weights,
                    const MovingAverageOptions& options = {});

// Scratch bytes a call with these arguments needs (the variant it picks or
// names; `uniform`: whether every weight is the same). Throws for an unknown
// variant.
template <class T>
std::size_t moving_average_workspace_bytes(std::size_t n, std::size_t w, bool uniform,
                                           const MovingAverageOptions& options = {});

// The name of the variant the public API picks for a window of w weights
// (uniform: all equal) over n samples of `type`.
std::string moving_average_default_variant(Dtype type, std::size_t n, std::size_t w, bool uniform);

}  // namespace tessera
