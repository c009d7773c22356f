// Which variant tessera::conv1d / conv2d run when options.variant is empty,
// as data: the rules in order (the first whose variant supports the call
// wins), each with what chose it: the round-1 H100 benches
// (docs/convolution.md "Measured").
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

// conv1d: masks of at least FFT_MIN_TAPS taps take the FFT path (measured
// at 1,025 taps: fft_overlap_save 1.19 ms against register_blocked 4.74 ms;
// the crossover itself, predicted near 450 taps, is not measured). Masks of
// at most SHORT_1D_TAPS taps take tiled_output_blocks, the fastest measured
// at 7 taps in round 1 (0.473 ms; register_blocked 0.846 ms, since rewritten
// with coalesced stores and all loads in flight: if its round-2 time is
// lower, the rule goes back to register_blocked). 15: below one 16-tap group
// of register_blocked, which costs the same FMAs for any mask up to 16 taps.
inline constexpr std::size_t FFT_MIN_TAPS = 512;
inline constexpr std::size_t SHORT_1D_TAPS = 15;

inline constexpr Rule GPU_RULES_1D[] = {
    {"fft_overlap_save", "mask_width >= FFT_MIN_TAPS (512)", "H100 80GB HBM3",
     "n = 2^26, 1,025 taps: 1.19 ms, 3.98x register_blocked, 5.59x cufft_whole_signal",
     "notes/gpu-r1/bench-conv1d.txt (round 1)"},
    {"tiled_output_blocks", "mask_width <= SHORT_1D_TAPS (15)", "H100 80GB HBM3",
     "n = 2^26, 7 taps: 0.473 ms (37.7% of copy), the fastest rung measured", "notes/gpu-r1/bench-conv1d.txt (round 1)"},
    {"register_blocked", "masks between (shared memory holds 4,096 outputs + the mask's halo)", "H100 80GB HBM3",
     "n = 2^26, 1,025 taps: 4.74 ms, 47% of FP32 (the direct form's best)", "notes/gpu-r1/bench-conv1d.txt (round 1)"},
    {"fft_overlap_save", "masks too long for register_blocked's shared tile", "-", "the only rung left", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

inline constexpr Rule GPU_RULES_2D[] = {
    {"separable", "a rank-1 mask (detected on the host) that fits the fused kernel's shared tiles", "H100 80GB HBM3",
     "8192^2, 9x9 separable: 0.500 ms, 1.84x register_blocked_wide", "notes/gpu-r1/bench-conv2d.txt (round 1)"},
    {"register_blocked_wide", "square masks of 3, 5, 7 or 9 taps", "H100 80GB HBM3",
     "8192^2: 5x5 0.350 ms vs register_blocked 0.430; 9x9 0.922 vs 1.166", "notes/gpu-r1/bench-conv2d.txt (round 1)"},
    {"register_blocked", "any other mask that fits its shared tile", "-",
     "not measured at other sizes (runtime-sized loop)", "-"},
    {"basic", "anything else", "-", "supports every call", "-"},
};

// Without a GPU (a CPU-only build, or none found).
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any call", "-", "the parallel CPU rung", "-"},
};

}  // namespace tessera::convolution_impl::policy
