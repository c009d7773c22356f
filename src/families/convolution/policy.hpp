// Which variant tessera::conv1d / conv2d run when options.variant is empty,
// as data: the rules in order (the first whose variant supports the call
// wins), each with what chose it: the final H100 benches of 2026-11-28
// (docs/convolution.md "Measured", docs/results/conv{1d,2d}-h100-2026-11-28.json).
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

// conv1d: masks of at least FFT_MIN_TAPS taps take the FFT path, the fused
// rung where it supports the mask (predicted faster than fft_overlap_save at
// every mask it takes: one pass over memory instead of ~2.4 GB; not yet
// measured), fft_overlap_save beyond 2,049 taps (measured
// at 1,025 taps: fft_overlap_save 1.058 ms median against register_blocked
// 4.367 ms, 4.1x; the crossover itself is not measured: the two measured
// ends predict it near 250 taps, so 512 stays until 257 and 513 are
// benched); shorter ones register_blocked (7 taps: 0.210 ms, 85.0 % of
// copy, 2.26x the best seed rung).
inline constexpr std::size_t FFT_MIN_TAPS = 512;

inline constexpr Rule GPU_RULES_1D[] = {
    {"fft_fused", "mask_width >= FFT_MIN_TAPS (512) and <= FUSED_MAX_TAPS (2,049)", "-",
     "predicted, not measured: n = 2^26, 1,025 taps ~0.35 ms (0.30-0.45: one read and one write of the signal, "
     "~232 M warp instructions at 70-80% issue), against fft_overlap_save's measured 1.058 ms",
     "-"},
    {"fft_overlap_save", "mask_width >= FFT_MIN_TAPS (512), longer than fft_fused takes", "H100 80GB HBM3",
     "n = 2^26, 1,025 taps: 1.058 ms, 4.1x register_blocked (4.367 ms), 6.3x cufft_whole_signal",
     "docs/results/conv1d-h100-2026-11-28.json"},
    {"register_blocked", "shorter masks (shared memory holds 4,096 outputs + the mask's halo)", "H100 80GB HBM3",
     "n = 2^26, 7 taps: 0.210 ms, 85.0% of copy; 1,025 taps: 4.367 ms, 51.5% of FP32",
     "docs/results/conv1d-h100-2026-11-28.json"},
    {"fft_fused", "masks too long for register_blocked's shared tile, up to 2,049 taps", "-", "predicted, as above", "-"},
    {"fft_overlap_save", "masks too long for register_blocked's shared tile", "-", "the only rung left", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

// conv2d: pipelined_tiles for every square mask it takes, measured faster
// than register_blocked_wide at 8192^2 (H100, its first version with the
// fixed stride tile walk: 5x5 0.2226 ms, 80.3 % of copy, against 0.2340;
// 9x9 0.2551 ms, 69.6 % of FP32, against 0.3672; a separable 9x9 0.2549
// against separable's 0.5089). Its tile counter (a faster SM takes more
// tiles; the 5x5 profile showed SMs idle 8.9 % of the time) is predicted,
// not measured: 5x5 ~0.21 ms, 9x9 ~0.25 ms.
inline constexpr Rule GPU_RULES_2D[] = {
    {"pipelined_tiles", "square masks of 1, 3, 5, 7 or 9 taps, separable or not", "H100 80GB HBM3",
     "8192^2, fixed tile walk: 5x5 0.2226 ms (80.3% of copy) vs register_blocked_wide 0.2340; 9x9 0.2551 ms "
     "(69.6% of FP32) vs 0.3672; separable 9x9 0.2549 vs separable 0.5089. Tile counter: predicted 5x5 ~0.21, "
     "9x9 ~0.25 ms",
     "docs/results/conv2d-h100-2026-11-28b.json"},
    {"register_blocked_wide", "square masks of 3, 5, 7 or 9 taps, separable or not", "H100 80GB HBM3",
     "8192^2: 5x5 0.234 ms (76% of copy); 9x9 0.370 ms, separable 9x9 0.370 vs separable's 0.513; "
     "session 32: 0.2340 / 0.3672",
     "docs/results/conv2d-h100-2026-11-28.json"},
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
