// The public transpose API's choice of variant: data, with its provenance.
// The candidates are steps 5-7 of the ladder (unroll4, the block shapes,
// grouped_order, vec16_swizzle, vec16_grouped); `tessera bench transpose`
// measures them side by side on the bench problems (8192 x 8192 float and
// double, 65536 x 1024, 65537 x 1023, 5000 x 3001).
#pragma once

#include <string_view>

namespace tessera::transpose_impl {

// Measured (H100, tessera bench transpose, two runs:
// docs/results/transpose-h100-2026-11-23.json and transpose-h100-2026-11-23b.json):
// the 64 x 64 tile with 64 x 8 threads is the only variant at or above
// cublasSgeam on every bench problem (8192^2 float 0.996-1.00x, 65536 x 1024
// 1.04x, 65537 x 1023 1.01x, 5000 x 3001 1.05x, 8192^2 double 1.01x);
// vec16_swizzle is 1-2% faster on some floats but 0.90x on 65537 x 1023 (odd
// column counts take its scalar fallback); the persistent vec16 kernels were
// slower everywhere (88-90% of copy on 8192^2 float).
inline constexpr std::string_view GPU_DEFAULT_VARIANT = "tile64_64x8";

// The CPU rung of CPU-only builds (and the only one worth calling: the
// reference is serial).
inline constexpr std::string_view CPU_DEFAULT_VARIANT = "cpu_openmp_blocked";

}  // namespace tessera::transpose_impl
