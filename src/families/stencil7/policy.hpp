// Which variant tessera::stencil7 runs when options.variant is empty, as
// data: the rules in order (the first that applies wins), each with the
// measurement that chose it. stencil7_default_variant() (api_policy.cpp)
// reads them; docs/stencil7.md says the same in prose.
//
// NOT YET MEASURED: the GPU rules are predictions from the cost model, to be
// measured by `tessera bench stencil7` (512^3 float 1 and 8 sweeps, 512^3
// double 1 sweep) and replaced by the numbers.
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
    {"temporal_blocking", Dtype::f32, 4, "to be measured",
     "predicted: 4 fused sweeps per pass, ~2.5 B per cell-sweep, > 562 G cells/s (1.5x the one-sweep copy bound)",
     "-"},
    {"temporal_blocking", Dtype::f64, 2, "to be measured",
     "predicted: 2 fused sweeps per pass move ~6 B per cell-sweep instead of 16", "-"},
    {"temporal_blocking", Dtype::f32, 0, "to be measured",
     "predicted: one pass of 64x32 tiles with a 1-cell halo, ~90% of copy (shared_tiling: its 32x16 tile reads "
     "~12% more through L2)",
     "-"},
    {"temporal_blocking", Dtype::f64, 0, "to be measured", "predicted: as float, one pass per sweep", "-"},
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
