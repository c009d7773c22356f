// The public transpose API's choice of variant: data, with its provenance.
// The candidates are steps 5-7 of the ladder (unroll4, the block shapes,
// grouped_order, vec16_swizzle, vec16_grouped); `tessera bench transpose`
// measures them side by side on the bench problems (8192 x 8192 float and
// double, 65536 x 1024, 65537 x 1023, 5000 x 3001).
#pragma once

#include <string_view>

namespace tessera::transpose_impl {

// Measured (H100, tessera bench transpose, docs/results/transpose-h100-2026-11-23.json):
// the 16-byte swizzled tile in row order is the fastest or within 1% on every
// float problem (8192^2 91.9% of copy, 65536x1024 92.9%, 5000x3001 91.2% where
// vec16_grouped gets 81.2%); on 8192^2 double grouped_order leads it by 1.5%.
inline constexpr std::string_view GPU_DEFAULT_VARIANT = "vec16_swizzle";

// The CPU rung of CPU-only builds (and the only one worth calling: the
// reference is serial).
inline constexpr std::string_view CPU_DEFAULT_VARIANT = "cpu_openmp_blocked";

}  // namespace tessera::transpose_impl
