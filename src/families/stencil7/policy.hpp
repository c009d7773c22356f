// Which variant tessera::stencil7 runs when options.variant is empty, as
// data: the rules in order (the first that applies wins), each with the
// measurement that chose it. stencil7_default_variant() (api_policy.cpp)
// reads them; docs/stencil7.md says the same in prose.
//
// Measured on the H100 (docs/results/stencil7-h100-2026-11-28b.json, 512^3,
// temporal_blocking with z chunks that fill whole waves): float 1 sweep
// temporal_blocking 91.3% of copy (best; naive 63.8%), float 8 sweeps
// temporal_blocking 1.834 ms, 155.5% of the one-sweep copy bound (best;
// naive 63.9%; the target, 150%, met), double 1 sweep temporal_blocking
// 92.7% (naive 92.0%). Double with 2+ sweeps is predicted, not measured.

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
     "512^3 float 8 sweeps: 1.834 ms, 585 G cells/s, 155.5% of the one-sweep copy bound (naive 63.9%)",
     "docs/results/stencil7-h100-2026-11-28b.json"},
    {"temporal_blocking", Dtype::f64, 2, "to be measured",
     "predicted: 2 fused sweeps per pass move ~6 B per cell-sweep instead of 16", "-"},
    {"temporal_blocking", Dtype::f32, 0, "H100 (2026-11-28)",
     "512^3 float 1 sweep: 0.3905 ms, 91.3% of copy (naive 63.8%, shared_tiling 65.8%)",
     "docs/results/stencil7-h100-2026-11-28b.json"},
    {"temporal_blocking", Dtype::f64, 1, "H100 (2026-11-28)",
     "512^3 double 1 sweep: 0.7689 ms, 92.7% of copy (naive 92.0%, shared_tiling 80.7%)",
     "docs/results/stencil7-h100-2026-11-28b.json"},
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
