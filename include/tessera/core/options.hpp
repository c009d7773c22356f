// What every entry point shares. Each family's call has the shape
//
//   result = tessera::family(inputs..., n or shape..., outputs..., options);
//
// and its options struct starts with the family's own fields (operator,
// accumulator, pitches, ...) and ends with these three, in this order:
//
//   std::string variant;   // empty: the variant the family's policy picks
//   stream_t stream;       // the work is ordered on this stream
//   Workspace workspace;   // optional caller scratch (below)
//
// Errors throw tessera::Error (tessera/core/error.hpp) before anything is
// written. Scratch memory is allocated stream-ordered (cudaMallocAsync) and
// freed when the call returns, unless the caller passes a Workspace of at
// least the family's *_workspace_bytes(...): then the call allocates nothing
// (graph capture, hot loops).
#pragma once

#include <cstddef>

namespace tessera {

// Caller-owned scratch of the memory kind the variant runs on (device memory
// for GPU variants, host memory for cpu_ variants). Contents on entry do not
// matter; the call may overwrite all `bytes`.
struct Workspace {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

}  // namespace tessera
