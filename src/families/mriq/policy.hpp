// Which variant tessera::mri_q runs when options.variant is empty, and the
// MUFU/FMA split ratio of step 11, as data with where they came from.
// docs/mriq.md says the same in prose.
#pragma once

#include <string_view>

namespace tessera::mriq_impl::policy {

// Step 11: of every SPLIT_GROUP k-space samples, POLY_OF_GROUP take the
// FMA-pipe polynomials (the short pair, sincos_turns_poly_short), the rest
// MUFU. Counted from the SASS (sm_90, per 16 pairs of the inner loop) and
// fitted to the H100 run of 2026-11-28 (docs/mriq.md, "The MUFU/FMA
// split"): a MUFU warp instruction costs the SM about 3.5 issue slots, not
// 1, so global_aos (9.1 slots + 2 MUFU a pair) is MUFU-bound with its issue
// ~88 % busy, and the old 1-in-4 split (12.5 slots + 1.5 MUFU) turned
// issue-bound: 40.5 ms against global_aos's 38.9 ms. The balance is near 1
// polynomial pair in 12; 1 in 8 with the short polynomial (19 slots a
// pair instead of 21) was predicted 1.08x global_aos and measured 1.013x
// (38.46 ms against 38.97): its issue (3.69 clocks) and MUFU (3.5) limits
// are nearly equal and overlap less than the max() model assumes.
inline constexpr int SPLIT_GROUP = 8;
inline constexpr int POLY_OF_GROUP = 1;

struct Rule {
  std::string_view variant;
  std::string_view when;
  std::string_view gpu;
  std::string_view measured;
};

// The 1-in-8 split measured ahead of global_aos at both bench sizes on the
// H100 (docs/results/mriq-h100-2026-11-28.json): 38.46 ms at 64^3 x 262144
// (85.8 % of the MUFU sin/cos ceiling; global_aos 38.97 ms, 84.7 %) and
// 0.0508 ms at 32^3 x 2048 (global_aos 0.0528), errors 1.75e-7 and 2.74e-7
// of max|Q|. The 1-in-4 split of round 1 lost (40.5 ms): issue-bound.
inline constexpr Rule GPU_RULE = {"mufu_fma_split", "any size", "H100",
                                  "38.46 ms at 64^3 x 262144, 85.8 % of the MUFU ceiling (global_aos 84.7 %)"};
// Without a GPU: the parallel CPU rung (double, as accurate as the reference).
inline constexpr Rule CPU_RULE = {"cpu_openmp", "any size", "-", "the only parallel CPU rung"};

constexpr std::string_view pick(bool gpu) { return gpu ? GPU_RULE.variant : CPU_RULE.variant; }

}  // namespace tessera::mriq_impl::policy
