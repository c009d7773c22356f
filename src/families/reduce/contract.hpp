// The reduce pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// ReduceVariant; the public API and the harness only go through the ladder.
#pragma once

#include <cstddef>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::reduce_impl {

// What is being reduced (everything but the data).
struct ReduceSpec {
  Dtype dtype;
  Op op;
  Accum accum;
  std::size_t n;
};

// One call. `in` and `out` are device pointers for CUDA variants and host
// pointers for CPU variants; `out` receives one reduce_result_t element.
// `workspace` holds workspace_bytes(spec) bytes of the same memory kind,
// contents undefined on entry. A CUDA run only enqueues work on `stream`: no
// allocation, no host synchronisation (so it can be captured in a graph).
struct ReduceCall {
  ReduceSpec spec;
  const void* in;
  void* out;
  void* workspace;
  stream_t stream;
};

struct ReduceVariant {
  VariantInfo info;
  bool (*supports)(const ReduceSpec&);
  std::size_t (*workspace_bytes)(const ReduceSpec&);
  void (*run)(const ReduceCall&);
};

// The ladder (ladder.cpp's one table, in step order): all(), find(name),
// at(name, who). The lab build adds its tuning rows to it.
ladder::Ladder<ReduceVariant>& variants_ladder();

}  // namespace tessera::reduce_impl
