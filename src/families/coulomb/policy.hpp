// Which variant tessera::coulomb_potential runs when options.variant is empty,
// and the split rung's ratio of FMA-pipe to MUFU reciprocal square roots, as
// data. docs/coulomb.md says the same in prose.
//
// The splits below were the issue-rate model's choices; the H100's
// measurements (docs/coulomb.md, "Measured") put every one below the MUFU
// ceiling, the shared-rows kernel below the per-atom one. The lab's rows
// (`tessera-lab bench coulomb`) are not yet measured; a faster row among them
// that meets the error bound would replace the pick.
#pragma once

#include <string_view>

#include "families/coulomb/contract.hpp"

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
  // The shared-rows kernel (split_kernel.cuh): dy^2 + dz^2 of every row of the
  // block computed once per atom at the tile load, the coincidence test once
  // per tile; the inner loop is two shared loads per atom and the pairs.
  bool shared_rows = false;
};

// 8 x 2 points: a warp covers 256 x-points, one row of the bench's 256-wide
// lattice with no padding. 3 of 16 on the FMA pipe (3 Newton steps: float-
// rounding accuracy); the first model's ~1.2x the MUFU ceiling measured
// 96.2 % on the H100 (issue-bound: docs/coulomb.md, "Cost model").
inline constexpr Split SPLIT{8, 2, 3, 3};
// 2 Newton steps (4.7e-6 relative error per FMA-pipe term): 4 of 16, measured
// 98.7 % of the MUFU ceiling (the first model said ~1.25x), the fastest row;
// not the pick: every term of a split point comes from the FMA pipe, so with
// charges of one sign it misses 1e-6 of sum |q|/r.
inline constexpr Split SPLIT_NEWTON2{8, 2, 4, 2};
// The policy's split with the compensated running totals.
inline constexpr Split SPLIT_COMPENSATED{8, 2, 3, 3, true};
// The same kernel with every rsqrt on MUFU: the split's baseline.
inline constexpr Split MUFU_ONLY{8, 2, 0, 0};
// SPLIT in the shared-rows kernel: about 11 fewer instructions per atom and
// warp (docs/coulomb.md, "Cost model"), so 3 of 16 on the FMA pipe no longer
// leave the issue slots short. Predicted ~106 % of the MUFU ceiling, measured
// 92.2 % on the H100: slower than SPLIT (docs/coulomb.md says why).
inline constexpr Split SPLIT_SHARED_ROWS{8, 2, 3, 3, false, true};
// The shared-rows kernel with the FMA-pipe rsqrt in one series step
// (common.cuh, fma_rsqrt_series: 9 instructions like 2 Newton steps, 4.4e-7
// per term like nearly 3): 4 of 16 fit before issue binds. Predicted ~112 %
// of the MUFU ceiling, measured 94.3 % on the H100.
inline constexpr Split SPLIT_SERIES{8, 2, 4, coulomb_impl::SERIES_STEP, false, true};

struct Rule {
  std::string_view variant;
  std::string_view when;
  std::string_view gpu;
  std::string_view measured;
};

// The pick is the fastest measured row whose error bound meets the target
// (1e-6 of sum |q|/r even when every term of a point comes from the FMA pipe
// with charges of one sign): 3 Newton steps (1.3e-7 per term) or the series
// step (4.4e-7). Measured on the H100 (docs/results/coulomb-h100-2026-11-28.json,
// 100,000 atoms on 256x256x64): mufu_only 87.2 %, mufu_fma_split 96.2 %,
// mufu_fma_split_series 94.3 %, mufu_fma_split_shared_rows 92.2 %;
// mufu_fma_split_newton2 98.7 % is faster but its 4.7e-6 per term misses the
// target for same-sign charges.
inline constexpr Rule GPU_RULES[] = {
    {"mufu_fma_split", "any lattice, any atom count", "H100 80GB HBM3",
     "96.2 % of the MUFU ceiling (104.7 ms); series 94.3 %, shared rows 92.2 % (predicted 112 / 106: the model "
     "missed, docs/coulomb.md)"},
};
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "any lattice, any atom count", "-", "the only parallel CPU rung"},
};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULES[0].variant : CPU_RULES[0].variant; }

}  // namespace tessera::coulomb_impl::policy
