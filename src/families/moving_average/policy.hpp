// Which variant tessera::moving_average runs when options.variant is empty,
// as data: the rules in order (the first that applies wins), each with the
// measurement that chose it. moving_average_default_variant() (policy.cpp)
// reads them; docs/moving_average.md says the same in prose.
//
// NOT YET MEASURED ON A GPU: the crossover below is a prediction from the
// cost model, to be replaced by `tessera bench moving_average` on the H100
// (the w sweep: `--size` is n; the bench problems hold w = 3, 31, 1001 and
// the crossover candidates listed in problem.cpp).
#pragma once

#include <cstddef>
#include <string_view>

namespace tessera::moving_average_impl::policy {

// Box filters of at least this many taps take the tiled running sum; narrower
// ones the register-blocked direct form. PREDICTED, TO BE MEASURED: the
// direct form costs w FMAs per output (~29 T FMA/s on an H100, ~60% of it in
// practice) against ~2.7 ps per output of copy time (8 bytes at 3.0 TB/s),
// so it stays memory-bound up to w ~ 48; the running sum costs the same at
// any w, slightly more than the copy (halo reads, FP64 scan).
inline constexpr std::size_t BOX_CROSSOVER_W = 48;
// The widest windows the shared-memory rungs take (cuda_rungs.hpp).
inline constexpr std::size_t TILED_MAX_W = 8191;
inline constexpr std::size_t SHARED_MAX_W = 16383;

struct Rule {
  std::string_view variant;
  std::string_view when;      // the calls it applies to
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the copy ceiling
  std::string_view source;    // the results file and the commit that chose it
};

inline constexpr Rule GPU_RULES[] = {
    {"running_sum_tiled", "uniform weights, 48 <= w <= 8191", "-",
     "not yet measured: predicted ~85-92% of copy at 2^28 samples, w = 1001", "-"},
    {"shared_window", "any weights, w <= 16383 (below the crossover, general weights, or boxes past 8191)", "-",
     "not yet measured: predicted ~90% of copy at w = 3, FMA-bound past w ~ 48", "-"},
    {"running_sum_global", "uniform weights, w > 16383", "-",
     "the only GPU variant for such boxes; its float prefix costs precision (docs: Precision)", "-"},
};

inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any weights, any w", "-", "the only parallel CPU rung", "-"},
};

// The GPU pick; empty when no GPU variant takes the call (general weights
// wider than SHARED_MAX_W).
constexpr std::string_view pick_gpu(std::size_t w, bool uniform) {
  if (uniform && w >= BOX_CROSSOVER_W && w <= TILED_MAX_W) return GPU_RULES[0].variant;
  if (w <= SHARED_MAX_W) return GPU_RULES[1].variant;
  if (uniform) return GPU_RULES[2].variant;
  return {};
}

constexpr std::string_view pick(bool gpu, std::size_t w, bool uniform) {
  return gpu ? pick_gpu(w, uniform) : CPU_RULES[0].variant;
}

}  // namespace tessera::moving_average_impl::policy
