// Which variant tessera::conv1d / conv2d run when options.variant is empty,
// as data: the rules in order (the first whose variant supports the call
// wins), each with what chose it: the H100 benches of 2026-11-28
// (docs/convolution.md "Measured", docs/results/conv{1d,2d}-h100-2026-11-28b.json)
// and the 1D taps sweep of the same day.
#pragma once

#include <cstddef>
#include <string_view>

namespace tessera::convolution_impl::policy {

struct Rule {
  std::string_view variant;
  std::string_view when;      // the calls it applies to
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the ceiling, speed-up
  std::string_view source;    // the results file and the commit that chose it
};

// conv1d, from the taps sweep at n = 2^26 (H100,
// docs/results/conv1d-taps-sweep-h100-2026-11-28.txt): fft_fused stays at
// 0.25-0.31 ms from 7 to 1,025 taps while register_blocked grows with the
// mask. fft_fused wins at every measured width from 33 taps up (33: 0.2636
// ms against 0.3354, 1.27x; 1,025: 0.3072 against 4.3807, 14.3x) and loses
// at 7 (0.2609 against 0.2181): FFT_MIN_TAPS is the first measured width
// where it wins; the widths between 7 and 33 are not measured. Past
// fft_fused's 2,049 taps fft_overlap_save takes masks of at least
// OVERLAP_SAVE_MIN_TAPS, its first measured win over register_blocked (193:
// 0.9229 ms against 0.9903; 129: 0.9404 against 0.7284; 2,049: 1.3551
// against 8.5604). Shorter masks go to register_blocked. Only n = 2^26 is
// measured: at short, launch-bound signals the fused rung's two launches
// (mask spectrum, then the pass) against register_blocked's one are not.
// The bench (docs/results/conv1d-h100-2026-11-28b.json) agrees: 1,025 taps
// fft_fused 0.2975 ms, 14.7x register_blocked (4.3660); 7 taps
// register_blocked 0.2092 ms (85.2 % of copy) against fft_fused 0.2540.
inline constexpr std::size_t FFT_MIN_TAPS = 33;
inline constexpr std::size_t OVERLAP_SAVE_MIN_TAPS = 193;

inline constexpr Rule GPU_RULES_1D[] = {
    {"fft_fused", "mask_width >= FFT_MIN_TAPS (33) and <= FUSED_MAX_TAPS (2,049)", "H100 80GB HBM3",
     "n = 2^26, 1,025 taps: 0.2975 ms, 14.7x register_blocked (4.3660 ms), 3.6x fft_overlap_save (1.0569 ms), "
     "22.5x cufft_whole_signal; taps sweep: faster than register_blocked at 33 taps (0.2636 vs 0.3354 ms) and "
     "every width measured above, slower at 7 (0.2609 vs 0.2181 ms)",
     "docs/results/conv1d-h100-2026-11-28b.json, docs/results/conv1d-taps-sweep-h100-2026-11-28.txt"},
    {"fft_overlap_save", "mask_width >= OVERLAP_SAVE_MIN_TAPS (193) that fft_fused declines (over 2,049 taps)",
     "H100 80GB HBM3",
     "n = 2^26: 2,049 taps 1.3551 ms against register_blocked 8.5604 ms (6.3x); 4,097 taps 1.4933 ms, the only "
     "FFT rung there",
     "docs/results/conv1d-taps-sweep-h100-2026-11-28.txt"},
    {"register_blocked", "shorter masks (shared memory holds 4,096 outputs + the mask's halo)", "H100 80GB HBM3",
     "n = 2^26, 7 taps: 0.2092 ms, 85.2% of copy, 2.25x the best seed rung (tiled_output_blocks 0.4705 ms)",
     "docs/results/conv1d-h100-2026-11-28b.json"},
    {"fft_fused", "masks too long for register_blocked's shared tile, up to 2,049 taps", "-", "as above", "-"},
    {"fft_overlap_save", "masks too long for register_blocked's shared tile", "-", "the only rung left", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

// conv2d: pipelined_tiles for every square mask it takes, measured faster
// than register_blocked_wide at 8192^2 (H100,
// docs/results/conv2d-h100-2026-11-28b.json): 5x5 0.1921 ms, 92.8 % of
// copy, against 0.2348; 9x9 0.2574 ms, 69.0 % of FP32, against 0.3676; a
// separable 9x9 0.2575 against separable's 0.5092. Its tile counter (a
// faster SM takes more tiles) is what lifts 5x5: the same kernel with the
// fixed stride walk (lab static_walk_tiles) takes 0.2218 ms.
inline constexpr Rule GPU_RULES_2D[] = {
    {"pipelined_tiles", "square masks of 1, 3, 5, 7 or 9 taps, separable or not", "H100 80GB HBM3",
     "8192^2: 5x5 0.1921 ms (92.8% of copy) vs register_blocked_wide 0.2348; 9x9 0.2574 ms (69.0% of FP32) "
     "vs 0.3676; separable 9x9 0.2575 vs separable 0.5092",
     "docs/results/conv2d-h100-2026-11-28b.json"},
    {"register_blocked_wide", "square masks of 3, 5, 7 or 9 taps, separable or not", "H100 80GB HBM3",
     "8192^2: 5x5 0.2348 ms (75.9% of copy); 9x9 0.3676 ms, separable 9x9 0.3675 vs separable's 0.5092",
     "docs/results/conv2d-h100-2026-11-28b.json"},
    {"separable", "a larger rank-1 mask (detected on the host) that fits the fused kernel's shared tiles", "-",
     "predicted: 2(w + h) flops a pixel instead of 2wh wins past 9x9 (not measured there)", "-"},
    {"register_blocked", "any other mask that fits its shared tile", "-",
     "not measured at other sizes (runtime-sized loop)", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

// Without a GPU (a CPU-only build, or none found).
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any call", "-", "the parallel CPU rung", "-"},
};

}  // namespace tessera::convolution_impl::policy
