// The batched_scan pattern's internal contract: what one call carries and what
// one registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// ScanVariant; the public API and the harness only go through this table.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "tessera/batched_scan.hpp"
#include "tessera/core/types.hpp"
#include "ladder/ladder.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::batched_scan_impl {

// What is being scanned (everything but the data). Pitches are in elements;
// `in_place` is in == out with in_pitch == out_pitch.
struct ScanSpec {
  ScanDirection direction = ScanDirection::forward_backward;
  Accum accum = Accum::native;
  bool exclusive = false;
  std::size_t rows = 0;
  std::size_t len = 0;
  std::size_t in_pitch = 0;
  std::size_t out_pitch = 0;
  bool in_place = false;
};

// One call. `in`/`out` are device pointers for CUDA variants and host
// pointers for CPU variants; row r, sample i is in[r * in_pitch + i].
// `workspace` holds workspace_bytes(spec) bytes of the same memory kind,
// contents undefined on entry. A CUDA run only enqueues work on `stream`: no
// allocation, no host synchronisation (so it can be captured in a graph).
// Runs with rows == 0 or len == 0 do nothing (and may get null pointers).
struct ScanCall {
  ScanSpec spec;
  const float* in;
  float* out;
  void* workspace;
  stream_t stream;
};

struct ScanVariant {
  VariantInfo info;
  bool (*supports)(const ScanSpec&);
  std::size_t (*workspace_bytes)(const ScanSpec&);
  void (*run)(const ScanCall&);
};

// The ladder (ladder.cpp's table; the lab build adds its tuning rows to it).
ladder::Ladder<ScanVariant>& variants_ladder();
// Shorthands of variants_ladder().all() / .find(name): every variant in
// ladder order (step, then table order), and one by name (nullptr if none).
std::span<const ScanVariant> all_variants();
const ScanVariant* find_variant(std::string_view name);

// Declares rung x's three functions (cuda_rungs.hpp for the product's
// rungs, lab/batched_scan/lab_rungs.hpp for the lab's).
#define TESSERA_BSCAN_DECLARE_RUNG(x)       \
  void run_##x(const ScanCall& call);       \
  std::size_t ws_##x(const ScanSpec& spec); \
  bool supports_##x(const ScanSpec& spec);

// "forward_backward inclusive, accumulator dfloat, 10000 x 10000 (pitches 10000/10000)".
std::string describe(const ScanSpec& s);

}  // namespace tessera::batched_scan_impl
