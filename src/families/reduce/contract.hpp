// The reduce pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// ReduceVariant; the public API and the harness only go through this table.
#pragma once

#include <cstddef>
#include <span>

#include "tessera/core/types.hpp"
#include "ladder/ladder.hpp"
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

// The tables, one per backend (src/cpu/reduce, src/cuda/reduce, src/vendor).
std::span<const ReduceVariant> cpu_variants();
std::span<const ReduceVariant> cuda_variants();    // empty in CPU-only builds
std::span<const ReduceVariant> vendor_variants();  // empty in CPU-only builds

// Every variant, ladder order (step, then table order).
std::span<const ReduceVariant> all_variants();
// The ladder itself (the lab build adds its tuning rows to it).
ladder::Ladder<ReduceVariant>& variants_ladder();
const ReduceVariant* find_variant(std::string_view name);

}  // namespace tessera::reduce_impl
