// The moving_average pattern's internal contract: what one call carries and
// what one registered variant provides. The public API and the harness only
// go through the ladder.
#pragma once

#include <cstddef>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"
#include "tessera/moving_average.hpp"

namespace tessera::moving_average_impl {

// What is filtered (everything but the data): n samples of dtype, a window
// of w (odd) weights, the edge rule, and whether every weight is the same
// (a box filter: the running-sum variants need it).
struct MovingAverageSpec {
  Dtype dtype;
  std::size_t n;
  std::size_t w;
  Edge edge;
  bool uniform;

  std::size_t half() const { return w / 2; }
};

// One call. in/out/weights are device pointers for CUDA variants and host
// pointers for CPU variants; weights holds w elements of dtype. `workspace`
// holds workspace_bytes(spec) bytes of the same memory kind, contents
// undefined on entry. A CUDA run only enqueues work on `stream` (no
// allocation, no host synchronisation: graph-capturable).
struct MovingAverageCall {
  MovingAverageSpec spec;
  const void* in;
  void* out;
  const void* weights;
  void* workspace;
  stream_t stream;
};

// How a variant's float rounding error grows, for the harness's tolerance
// and the precision report (docs/moving_average.md, "Precision"):
//   window        the w products of one output, summed (error ~ eps * the
//                 window's absolute sum);
//   tile_prefix   a running sum re-anchored at each tile: the subtraction
//                 of two prefixes that start at most TILE_PREFIX_SPAN + w
//                 samples back (error ~ eps * that span's absolute sum);
//   global_prefix a running sum from one prefix over the whole array: the
//                 subtraction of two prefixes that start at sample 0 (error
//                 ~ eps * the absolute sum of everything before the output);
//   segment_prefix a float prefix re-anchored every 128 samples, the
//                 segment totals carried in double: error ~ eps * the
//                 absolute sum of the window and the SEGMENT_PREFIX_SPAN
//                 samples before it (segmented_prefix.hpp).
enum class Precision { window, tile_prefix, global_prefix, segment_prefix };

// Samples a tile_prefix variant's prefix spans besides the window (its tile
// of outputs plus the alignment of its first load); the CUDA rung checks it
// with a static_assert.
inline constexpr std::size_t TILE_PREFIX_SPAN = 4096 + 8;

// Samples a segment_prefix variant's prefixes span besides the window: the
// start of the segment its first sample falls in, at most 127 before it
// (the CUDA rung checks it with a static_assert).
inline constexpr std::size_t SEGMENT_PREFIX_SPAN = 128;

struct MovingAverageVariant {
  VariantInfo info;
  Precision precision;
  Accum accum;  // what the variant accumulates in: native (the element type) or f64
  bool (*supports)(const MovingAverageSpec&);
  std::size_t (*workspace_bytes)(const MovingAverageSpec&);
  void (*run)(const MovingAverageCall&);
};

// The ladder (ladder.cpp's table, in step order).
ladder::Ladder<MovingAverageVariant>& variants_ladder();

}  // namespace tessera::moving_average_impl
