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

// Not yet measured on a GPU (round 1's bench did not finish): the pick is the
// ladder's last rung, the fewest atoms staged per pair kept (step 9's cells)
// and the fewest instructions per pair (sm_90 SASS: ~42 issue slots per atom
// in the cylinder against step 9's ~69); the bench will confirm or replace it.
inline constexpr Rule GPU_RULES[] = {
    {"sorted_cells_lean", "any lattice and cutoff the grid limits allow", "-",
     "not yet measured on a GPU (expected: ~1.5x sorted_cells from its instruction count)", "-"},
};

inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any lattice and cutoff", "-", "the only parallel CPU rung", "-"},
};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULES[0].variant : CPU_RULES[0].variant; }

}  // namespace tessera::cutoff_impl::policy
