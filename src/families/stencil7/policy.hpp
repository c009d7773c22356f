// Which variant tessera::stencil7 runs when options.variant is empty, as
// data: the rules in order (the first that applies wins), each with the
// measurement that chose it. stencil7_default_variant() (api_policy.cpp)
// reads them; docs/stencil7.md says the same in prose.
//
// Measured on the H100 (2026-11-28, bench-stencil7.txt, 512^3, before the
// 16-byte one-sweep pass): float 1 sweep temporal_blocking 71.1% of copy
// (best), float 8 sweeps temporal_blocking 129.4% (best), double 1 sweep
// naive 92.1% (best; temporal_blocking 78.2%). Rules marked "predicted" wait
// for the next bench.

#pragma once

#include <string_view>

#include "tessera/core/types.hpp"

namespace tessera::stencil7_impl::policy {

struct Rule {
  std::string_view variant;
  Dtype dtype;
  int min_sweeps;             // applies to calls with at least this many sweeps
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the copy ceiling, G cells/s
  std::string_view source;    // the results file and the commit that chose it
};

inline constexpr Rule GPU_RULES[] = {
    {"temporal_blocking", Dtype::f32, 4, "H100 (2026-11-28)",
     "512^3 float 8 sweeps: 2.206 ms, 487 G cells/s, 129.4% of the one-sweep copy bound (naive 64.0%)",
     "bench-stencil7.txt"},
    {"temporal_blocking", Dtype::f64, 2, "to be measured",
     "predicted: 2 fused sweeps per pass move ~6 B per cell-sweep instead of 16", "-"},
    {"temporal_blocking", Dtype::f32, 0, "H100 (2026-11-28)",
     "512^3 float 1 sweep: 0.502 ms, 71.1% of copy (best of the ladder; naive 63.9%). Predicted with the "
     "16-byte one-sweep pass: >= 90%",
     "bench-stencil7.txt"},
    // One double sweep: naive measured best. The 16-byte pass of
    // temporal_blocking is predicted >= naive (same 16 B per load as a float4);
    // when the bench shows it, this rule becomes temporal_blocking.
    {"naive", Dtype::f64, 1, "H100 (2026-11-28)",
     "512^3 double 1 sweep: 0.775 ms, 92.1% of copy (temporal_blocking 78.2%, shared_tiling 80.9%)",
     "bench-stencil7.txt"},
    {"temporal_blocking", Dtype::f64, 0, "-", "no sweep: a copy, the same in every rung", "-"},
};

// Without a GPU (a CPU-only build, or none found): the parallel CPU rung.
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", Dtype::f32, 0, "-", "the only parallel CPU rung", "-"},
};

constexpr std::string_view pick(bool gpu, Dtype dtype, int sweeps) {
  if (!gpu) return CPU_RULES[0].variant;
  for (const Rule& r : GPU_RULES)
    if (r.dtype == dtype && sweeps >= r.min_sweeps) return r.variant;
  return GPU_RULES[0].variant;
}

}  // namespace tessera::stencil7_impl::policy
