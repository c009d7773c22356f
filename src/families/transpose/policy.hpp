// Which variant tessera::transpose runs when options.variant is empty, as
// data: the rules in order (the first that applies wins), each with the
// measurement that chose it. transpose_default_variant() (api.cpp, and
// api_cpu.cpp in CPU-only builds) reads them; docs/transpose.md says the same
// in prose. The candidates were measured side by side by `tessera bench
// transpose` (8192 x 8192 float and double, 65536 x 1024, 65537 x 1023,
// 5000 x 3001 float) with the lab's rows in the ladder.
#pragma once

#include <string_view>

namespace tessera::transpose_impl::policy {

struct Rule {
  std::string_view variant;
  std::string_view when;      // the calls it applies to
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the copy ceiling, speed-up
  std::string_view source;    // the results file and the commit that chose it
};

// CUDA builds: one rule, every 4- or 8-byte type and every shape.
inline constexpr Rule GPU_RULES[] = {
    {"tile64_64x8", "any type, any shape", "H100 80GB HBM3",
     "float 8192^2: 93.4% of copy, 1.004x cublasSgeam (0.996x and 1.00x in the two runs before); 65536x1024 1.05x, "
     "65537x1023 1.02x, 5000x3001 1.22x, double 8192^2 1.05x: the only variant at or above cublas_geam on every "
     "bench problem in all three runs (vec16_swizzle: 0.90x on 65537x1023, whose odd rows take its scalar fallback)",
     "docs/results/transpose-h100-2026-11-23{,b,c}.json; commit 361c7f6"},
};

// Without a GPU (a CPU-only build, or none found): the parallel CPU rung (the serial reference is the
// definition, minutes past 2^28 elements).
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp_blocked", "any type, any shape", "-", "the only parallel CPU rung", "-"},
};

// One rule with a GPU and one without, for every type and shape.
constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULES[0].variant : CPU_RULES[0].variant; }

}  // namespace tessera::transpose_impl::policy
