// Which variant tessera::cutoff_potential runs when options.variant is empty,
// as data, with the measurement that chose it. docs/cutoff.md says the same.
#pragma once

#include <string_view>

namespace tessera::cutoff_impl::policy {

struct Rule {
  std::string_view variant;
  std::string_view when;
  std::string_view gpu;
  std::string_view measured;
  std::string_view source;
};

// Measured on the H100 (docs/results/cutoff-h100-2026-11-28.json): on every
// bench problem sorted_cells_lean8 (8 points a thread) was the fastest row:
// 3.35 ms on the direct sum's 100,000-atom 256x256x64 lattice (31x the direct
// sum's pick, 104.7 ms), 1.13-1.18x sorted_cells_lean, 1.46-1.48x sorted_cells.
inline constexpr Rule GPU_RULES[] = {
    {"sorted_cells_lean8", "any lattice and cutoff the grid limits allow", "H100 80GB HBM3",
     "3.35 ms on 100,000 atoms, 256x256x64, c 12 (32.7 % of the MUFU ceiling in pairs within c)",
     "docs/results/cutoff-h100-2026-11-28.json"},
};

inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any lattice and cutoff", "-", "the only parallel CPU rung", "-"},
};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULES[0].variant : CPU_RULES[0].variant; }

}  // namespace tessera::cutoff_impl::policy
