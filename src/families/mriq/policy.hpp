// Which variant tessera::mri_q runs when options.variant is empty, and the
// MUFU/FMA split ratio of step 11, as data with where they came from.
// docs/mriq.md says the same in prose.
#pragma once

#include <string_view>

namespace tessera::mriq_impl::policy {

// Step 11: of every 4 k-space samples, this many take the FMA-pipe
// polynomials, the rest MUFU. Chosen by arithmetic, not yet by measurement
// (docs/mriq.md, "The MUFU/FMA split"): a MUFU pair costs ~9 issue slots
// and 2 MUFU ops (16 MUFU clocks per warp), a polynomial pair ~21 issue
// slots and none (counted from the PTX); issue and MUFU balance at ~37%
// polynomial pairs; of 0, 1, 2 in 4, 1 is the fastest predicted (1.33x the
// MUFU-only rung; 2 in 4: issue-bound, 1.07x). To be confirmed with
// turns_poly and global_aos measured side by side on an H100 (not yet
// measured on a GPU).
inline constexpr int POLY_OF_4 = 1;

struct Rule {
  std::string_view variant;
  std::string_view when;
  std::string_view gpu;
  std::string_view measured;
};

inline constexpr Rule GPU_RULE = {"mufu_fma_split", "any size", "-",
                                  "not yet measured on a GPU: the predicted fastest (docs/mriq.md)"};
// Without a GPU: the parallel CPU rung (double, as accurate as the reference).
inline constexpr Rule CPU_RULE = {"cpu_openmp", "any size", "-", "the only parallel CPU rung"};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULE.variant : CPU_RULE.variant; }

}  // namespace tessera::mriq_impl::policy
