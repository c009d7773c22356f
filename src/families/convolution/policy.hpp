// Which variant tessera::conv1d / conv2d run when options.variant is empty,
// as data: the rules in order (the first whose variant supports the call
// wins), each with what chose it. Nothing here has been measured on a GPU
// yet: every GPU rule says "to be measured" with the prediction it rests on;
// `tessera bench conv1d conv2d` on the H100 decides (docs/convolution.md).
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

// conv1d: masks of at least FFT_MIN_TAPS taps take the FFT path. Predicted,
// to be measured: the cuFFT pipeline moves ~80 bytes per sample (gather,
// two transforms, multiply, scatter: ~29 ps per sample at 2.8 TB/s); the
// direct form at ~60% of the H100's 52 TFLOP/s costs 2 taps / 31e12 s per
// sample: equal near 450 taps.
inline constexpr std::size_t FFT_MIN_TAPS = 512;

inline constexpr Rule GPU_RULES_1D[] = {
    {"fft_overlap_save", "mask_width >= FFT_MIN_TAPS (512)", "-",
     "to be measured: predicted crossover ~450 taps (policy.hpp)", "-"},
    {"register_blocked", "shorter masks (shared memory holds 2,048 outputs + the mask's halo)", "-",
     "to be measured: predicted >= 85% of copy for 7 taps", "-"},
    {"fft_overlap_save", "masks too long for register_blocked's shared tile", "-", "the only rung left", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

inline constexpr Rule GPU_RULES_2D[] = {
    {"separable", "a rank-1 mask (detected on the host) that fits the fused kernel's shared tiles", "-",
     "to be measured: predicted near copy bandwidth for every size (mask_w + mask_h FMAs per pixel)", "-"},
    {"register_blocked", "any other mask that fits its shared tile", "-",
     "to be measured: predicted >= 85% of copy (5x5) and of the FP32 rate (9x9)", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

// Without a GPU (a CPU-only build, or none found).
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any call", "-", "the parallel CPU rung", "-"},
};

}  // namespace tessera::convolution_impl::policy
