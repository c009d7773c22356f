// tessera::batched_scan — prefix sums along every row of a batch of float
// rows: forward, backward (suffix sums), or forward then backward (the
// backward pass scans the forward result), as seismic anti-alias filtering
// does over each trace before migration.
//
//   // 10,000 traces of 10,000 samples, forward then backward, in place:
//   tessera::batched_scan(d_x, rows, len, d_x);
//   // double-float accumulation, exclusive, pitched input, out of place, on a stream:
//   tessera::batched_scan(d_in, rows, len, d_out,
//                         {.accum = tessera::Accum::dfloat, .exclusive = true, .in_pitch = pitch, .stream = s});
//   // any ladder rung by name; a caller's workspace (no allocation at all):
//   tessera::BatchedScanOptions o{.variant = "fused_one_pass"};
//   o.workspace = {d_scratch, tessera::batched_scan_workspace_bytes(rows, len, o)};
//   tessera::batched_scan(d_in, rows, len, d_out, o);
//
// Layout: row r, sample i is at in[r * in_pitch + i] (pitches in elements,
// pitch >= len; 0 means len, compact rows). `in == out` with equal pitches
// scans in place; any other overlap of the two row sets is rejected. Samples
// between len and the pitch are neither read nor written.
//
// Semantics for one row x[0..len) (inclusive; exclusive shifts by one and
// starts from 0):
//   forward           y[i] = x[0] + ... + x[i]
//   backward          y[i] = x[i] + ... + x[len-1]
//   forward_backward  f = forward(x), then y = backward(f)
// The accumulator is carried across the whole row (and across both passes):
// native float, double, Kahan-compensated float, or double-float (a float
// pair with error-free transformations); each output is rounded once to float.
//
// Any rows >= 0 and len >= 0 (rows == 0 or len == 0 does nothing). GPU
// variants take device pointers; the variants named cpu_* (reachable through
// `variant`) take host pointers. Errors (null pointer with work to do, pitch
// < len, partial overlap, an unknown variant, unsupported accumulator, a
// workspace smaller than batched_scan_workspace_bytes, a failed allocation)
// throw tessera::Error before anything is written.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

enum class ScanDirection { forward, backward, forward_backward };

std::string_view to_string(ScanDirection d) noexcept;  // "forward", "backward", "forward_backward"

struct BatchedScanOptions {
  ScanDirection direction = ScanDirection::forward_backward;
  Accum accum = Accum::native;
  bool exclusive = false;
  std::size_t in_pitch = 0;   // elements from one input row to the next (0: len)
  std::size_t out_pitch = 0;  // elements from one output row to the next (0: len)
  std::string variant = {};   // empty: the best variant for this shape and accumulator
  stream_t stream = nullptr;
  Workspace workspace = {};   // optional scratch of batched_scan_workspace_bytes(...) bytes
};

// Scans each of the `rows` rows of `len` samples of `in` into `out`.
// Asynchronous for GPU variants (ordered on options.stream; scratch is
// allocated stream-ordered unless options.workspace holds it); synchronous
// for cpu_* variants.
void batched_scan(const float* in, std::size_t rows, std::size_t len, float* out,
                  const BatchedScanOptions& options = {});

// The cpu_* variants on host memory, without ever touching the GPU: no
// driver initialisation, no pointer queries, no stream to wait for (the
// public call above asks the driver where `in` and `out` live, which starts
// it: 0.1-0.2 s). For callers whose buffers are their own host memory and
// who may run on a machine with a GPU they do not want started (`tessera
// traces` on the host). options.variant names a cpu_* variant (empty:
// cpu_openmp); a GPU variant is refused by name; options.stream is ignored.
// Synchronous; the same arguments are checked as by batched_scan.
void batched_scan_host(const float* in, std::size_t rows, std::size_t len, float* out,
                       const BatchedScanOptions& options = {});

// Bytes of scratch the call with these arguments needs (the variant
// options.variant names, or the one the call picks); 0 when none.
std::size_t batched_scan_workspace_bytes(std::size_t rows, std::size_t len, const BatchedScanOptions& options = {});

// The name of the variant the public call picks for this shape.
std::string batched_scan_default_variant(std::size_t rows, std::size_t len, Accum accum, ScanDirection direction);

}  // namespace tessera
