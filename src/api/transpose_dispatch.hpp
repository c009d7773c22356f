// The public transpose API's choice of variant: data, with its provenance.
// The candidates are steps 5-7 of the ladder (unroll4, the block shapes,
// grouped_order, vec16_swizzle, vec16_grouped); `tessera bench transpose`
// measures them side by side on the bench problems (8192 x 8192 float and
// double, 65536 x 1024, 65537 x 1023, 5000 x 3001).
#pragma once

#include <string_view>

namespace tessera::transpose_impl {

// PREDICTION, not yet measured on a GPU: the 16-byte swizzled tile in
// grouped order (docs/transpose.md gives the reasoning). To be replaced by
// the fastest rung of the H100 bench, with its numbers here.
inline constexpr std::string_view GPU_DEFAULT_VARIANT = "vec16_grouped";

// The CPU rung of CPU-only builds (and the only one worth calling: the
// reference is serial).
inline constexpr std::string_view CPU_DEFAULT_VARIANT = "cpu_openmp_blocked";

}  // namespace tessera::transpose_impl
