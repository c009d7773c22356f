// Which variant tessera::coulomb_potential runs when options.variant is empty,
// and the split rung's ratio of FMA-pipe to MUFU reciprocal square roots, as
// data. docs/coulomb.md says the same in prose.
//
// Not yet measured on a GPU: the split below is the issue-rate model's choice
// (docs/coulomb.md, "Cost model"), to be replaced by the measured best of
// `tessera bench coulomb` (mufu_fma_split, mufu_fma_split_newton2 and
// mufu_only side by side).
#pragma once

#include <string_view>

namespace tessera::coulomb_impl::policy {

// One thread's share of the split rung (07_mufu_fma_split.cu): POINTS_X points
// a warp apart in each of ROWS rows; FMA_POINTS of those POINTS_X x ROWS
// reciprocal square roots go to the FMA pipe (estimate + NEWTON Newton
// steps), the rest to MUFU.
struct Split {
  int points_x;
  int rows;
  int fma_points;
  int newton;
  // Each point's sum of a 128-atom tile (float) added to its running total
  // with Kahan compensation: the float rounding of the total no longer grows
  // with the atom count (docs/coulomb.md, "Precision"); 3 more registers'
  // worth per point, 4 FADDs per point per tile.
  bool compensated = false;
};

// 8 x 2 points: a warp covers 256 x-points, one row of the bench's 256-wide
// lattice with no padding. Model (H100: 128 issue slots and 16 MUFU per SM per
// clock): a MUFU pair costs 4 instructions, an FMA-pipe pair 15 (3 Newton
// steps); 3 of 16 on the FMA pipe balances issue and MUFU at ~19.5 pairs per
// clock per SM, ~1.2x the MUFU ceiling, with float-rounding accuracy.
inline constexpr Split SPLIT{8, 2, 3, 3};
// 2 Newton steps (4.7e-6 relative error per FMA-pipe term): 4 of 16 balance
// at ~1.25x; accurate to about 1e-6 of sum |q|/r only because 3/4 of the
// terms are MUFU's.
inline constexpr Split SPLIT_NEWTON2{8, 2, 4, 2};
// The policy's split with the compensated running totals.
inline constexpr Split SPLIT_COMPENSATED{8, 2, 3, 3, true};
// The same kernel with every rsqrt on MUFU: the split's baseline.
inline constexpr Split MUFU_ONLY{8, 2, 0, 0};

struct Rule {
  std::string_view variant;
  std::string_view when;
  std::string_view gpu;
  std::string_view measured;
};

inline constexpr Rule GPU_RULES[] = {
    {"mufu_fma_split", "any lattice, any atom count", "-", "not yet measured on a GPU (model: ~1.2x the MUFU ceiling)"},
};
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any lattice, any atom count", "-", "the only parallel CPU rung"},
};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULES[0].variant : CPU_RULES[0].variant; }

}  // namespace tessera::coulomb_impl::policy
