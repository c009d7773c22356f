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

// Not yet measured on a GPU: the pick is the ladder's last rung, the one that
// examines the fewest atoms per pair kept; the bench will confirm or replace it.
inline constexpr Rule GPU_RULES[] = {
    {"sorted_cells", "any lattice and cutoff the grid limits allow", "-",
     "not yet measured on a GPU (expected: fewest atom tests per pair of the ladder)", "-"},
};

inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any lattice and cutoff", "-", "the only parallel CPU rung", "-"},
};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULES[0].variant : CPU_RULES[0].variant; }

}  // namespace tessera::cutoff_impl::policy
