// Which variant tessera::moving_average runs when options.variant is empty,
// as data: the rules in order (the first that applies wins), each with the
// measurement that chose it. moving_average_default_variant() (policy.cpp)
// reads them; docs/moving_average.md says the same in prose.
//
// Measured on the H100 (`tessera bench moving_average`, 2^28 samples; the
// bench problems hold w = 3, 31, 1001 and the crossover candidates 15, 47,
// 95, 127 listed in problem.cpp). docs/moving_average.md "Measured" has the rows.
#pragma once

#include <cstddef>
#include <string_view>

namespace tessera::moving_average_impl::policy {

// Box filters of at least this many taps take a running sum; narrower ones
// the register-blocked direct form. Measured on the H100 at 2^28 samples
// (the final run, docs/results/moving_average-h100-2026-11-28b.json):
// shared_window 0.721 / 0.758 / 1.040 / 1.538 / 1.916 ms at w = 3 / 15 / 47 /
// 95 / 127 (it turns FMA-bound past w ~ 15), running_sum_tiled flat at
// 0.80-0.82 ms: they cross at w ~ 21.5 (linear between 15 and 47: 0.758 /
// 1.040 ms against 0.814 / 0.815). The first run
// (docs/results/moving_average-h100-2026-11-28.json) crossed at w ~ 22:
// 0.759 / 1.047 ms against 0.818 / 0.819.
inline constexpr std::size_t BOX_CROSSOVER_W = 23;
// Float boxes of at least this many taps take the segmented running sum
// (step 7) instead of the compensated tiled one. Set by precision, measured
// on the H100 at 2^28 samples (docs/results/moving_average-h100-2026-11-28b.json):
// step 7 is faster than running_sum_tiled at every w (0.720-0.744 ms,
// 95.8-99.1 % of copy, against 0.801-0.887 ms), but its error is at most
// 20 eps times the window and the 127 samples before it (segmented_prefix.hpp),
// so narrow windows lose: max error against the window's absolute sum
// 1.47e-3 / 3.35e-6 / 5.82e-7 / 2.87e-7 / 2.49e-7 / 1.18e-7 at w = 3 / 15 /
// 47 / 95 / 127 / 1001, shared_window's 1.59e-7 / 3.02e-7 / 4.13e-7 / 5.21e-7
// / 5.80e-7 / 1.35e-6. Below the direct sum's from w = 95 (1.8x; 2.3x at
// 127), above it at 47 (1.4x): the crossing lies between 47 and 95 (the CPU
// model: near 80); the threshold is the narrowest measured window past it.
// Below 95 the compensated rung keeps each output one rounding from exact.
inline constexpr std::size_t SEGMENTED_MIN_W = 95;
// The widest windows the shared-memory rungs take (cuda_rungs.hpp): float;
// shared_window takes double up to the tiled width.
inline constexpr std::size_t TILED_MAX_W = 8191;
inline constexpr std::size_t SHARED_MAX_W = 16383;
constexpr std::size_t shared_max_w(bool f32) { return f32 ? SHARED_MAX_W : TILED_MAX_W; }

struct Rule {
  std::string_view variant;
  std::string_view when;      // the calls it applies to
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the copy ceiling
  std::string_view source;    // the results file and the commit that chose it
};

inline constexpr Rule GPU_RULES[] = {
    {"running_sum_segmented", "float, uniform weights, 95 <= w <= 8191", "H100 80GB HBM3",
     "2^28 samples: w = 1001 0.744 ms (95.8% of copy; running_sum_tiled 0.887, 80.4%), w = 127 0.720 ms (99.1%), "
     "w = 95 0.736 ms (96.9%; running_sum_tiled 0.815); max error 1.18e-7 / 2.49e-7 / 2.87e-7 of the window's "
     "absolute sum (shared_window 1.35e-6 / 5.80e-7 / 5.21e-7)",
     "docs/results/moving_average-h100-2026-11-28b.json"},
    {"running_sum_tiled", "uniform weights, 23 <= w <= 8191 (double, or float below 95)", "H100 80GB HBM3",
     "2^28 float samples: w = 47 0.815 ms (87.4% of copy; shared_window 1.040), every output one rounding from exact",
     "docs/results/moving_average-h100-2026-11-28b.json"},
    {"shared_window", "any weights, w <= 16383 (double: 8191) (below the crossover, general weights, or boxes past 8191)",
     "H100 80GB HBM3", "2^28 samples: w = 3 0.721 ms (98.9% of copy), weighted w = 31 0.882 ms (80.8%)",
     "docs/results/moving_average-h100-2026-11-28b.json"},
    {"running_sum_global", "float, uniform weights, w > 16383", "-",
     "the only GPU variant for such boxes; its float prefix costs precision (docs: Precision)", "-"},
};

inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any weights, any w", "-", "the only parallel CPU rung", "-"},
};

// The GPU pick; empty when no GPU variant takes the call (general float
// weights wider than SHARED_MAX_W, double windows wider than TILED_MAX_W).
// f32: float samples (steps 5 and 7 take float only).
constexpr std::string_view pick_gpu(bool f32, std::size_t w, bool uniform) {
  if (f32 && uniform && w >= SEGMENTED_MIN_W && w <= TILED_MAX_W) return GPU_RULES[0].variant;
  if (uniform && w >= BOX_CROSSOVER_W && w <= TILED_MAX_W) return GPU_RULES[1].variant;
  if (w <= shared_max_w(f32)) return GPU_RULES[2].variant;
  if (f32 && uniform) return GPU_RULES[3].variant;
  return {};
}

constexpr std::string_view pick(bool gpu, bool f32, std::size_t w, bool uniform) {
  return gpu ? pick_gpu(f32, w, uniform) : CPU_RULES[0].variant;
}

}  // namespace tessera::moving_average_impl::policy
