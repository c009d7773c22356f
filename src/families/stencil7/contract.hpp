// The stencil7 pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU, CUDA) fills a Stencil7Variant;
// the public API and the harness only go through the ladder.
#pragma once

#include <cstddef>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::stencil7_impl {

// What is computed (everything but the data): `sweeps` Jacobi sweeps of the
// 7-point stencil on an nx x ny x nz grid, x fastest (cell (x, y, z) at
// (z * ny + y) * nx + x). Interior cells: out = c1 * (sum of the six
// neighbours) - c0 * centre; boundary cells keep their input values. The
// public API guarantees nx, ny, nz >= 3, finite c0 and c1 and sweeps >= 0.
struct Stencil7Spec {
  Dtype dtype;  // f32 or f64
  std::size_t nx, ny, nz;
  int sweeps;
  double c0, c1;  // converted to the element type by the rungs

  std::size_t cells() const { return nx * ny * nz; }
};

// One call. Pointers are device pointers for CUDA variants and host pointers
// for CPU variants. `in` is only read; the result of the last sweep ends in
// `out`; `workspace` holds workspace_bytes(spec) bytes of the same memory
// kind, contents undefined on entry (the second buffer of the ping-pong).
// A CUDA run only enqueues work on `stream`: no allocation, no host
// synchronisation (graph-capturable).
struct Stencil7Call {
  Stencil7Spec spec;
  const void* in;
  void* out;
  void* workspace;
  stream_t stream;
};

struct Stencil7Variant {
  VariantInfo info;
  bool (*supports)(const Stencil7Spec&);
  std::size_t (*workspace_bytes)(const Stencil7Spec&);
  void (*run)(const Stencil7Call&);
};

// The ladder (ladder.cpp's one table, in step order): all(), find(name),
// at(name, who).
ladder::Ladder<Stencil7Variant>& variants_ladder();

}  // namespace tessera::stencil7_impl
