// Which variant tessera::batched_scan picks (no options.variant): a table of
// rules by row length and accumulator, first match wins. Every tessera rung
// handles every accumulator and direction, so neither the direction nor the
// number of rows decides. Each rule carries the measurement that chose it;
// docs/batched_scan.md ("Default policy") has the tables behind them.
// CPU-only builds pick cpu_openmp.
#pragma once

#include <cstddef>
#include <iterator>
#include <limits>
#include <string_view>

#include "families/batched_scan/cuda_rungs.hpp"
#include "tessera/core/types.hpp"

namespace tessera::batched_scan_impl {

// Which accumulators a rule is for: float (native) or the 8-byte states
// (double, Kahan, double-float), whose wider sums cost issue slots.
enum class AccumClass { any, float_only, wide_only };

struct PickRule {
  std::size_t max_len;  // rows of at most this many samples
  AccumClass accums;
  std::string_view variant;
  std::string_view measured;  // GPU, shape, % of copy bandwidth, and where the numbers are
};

// Float rows at least this long (and past fused_fitted's tiles) go to
// fused_pipelined_bulk: one persistent 896-thread block per SM pays ~3.2 us of
// fixed work per row, which a row of 10,000 floats (3.5 us of memory time per
// SM) hides and a shorter row does not.
inline constexpr std::size_t PIPELINED_MIN_LEN = 8192;

// The last rule's rung has fallbacks of its own (06_multi_tile_resident.cu):
// rows past the GPU's shared memory are streamed (forward_backward) or
// chained (one direction); below sm_90, or where its kernel does not fit,
// the three-launch rung for the accumulator runs (H100, rows of 10^5 and
// 10^6: float multi_tile 61-62% of copy, double multi_tile_pipelined
// 46.5-47.9%, Kahan and double-float multi_tile_occupancy 41.7-43.4% and
// 40.0-42.0%; docs/results/batched_scan-h100-2026-11-23b.txt).
inline constexpr PickRule kPickRules[] = {
    {SHORT_ROW_MAX_LEN, AccumClass::float_only, "short_rows",
     "H100, 3,125,000 x 32 float forward_backward: 91.1% of copy, 3.22x CUB "
     "(docs/results/batched_scan-final-h100-2026-11-24.txt)"},
    {SHORT_ROW_MAX_LEN_WIDE, AccumClass::wide_only, "short_rows",
     "H100, rows of 129 / 200 / 256, double-float: 43.2 / 65.6 / 83.1% of copy against fused_fitted's "
     "32.6 / 50.8 / 64.5% (docs/results/batched_scan-two-level-h100-2026-11-24.txt, run 15)"},
    {FITTED_MAX_LEN, AccumClass::any, "fused_fitted",
     "H100, rows of 300 to 7,000: float 78-93% of copy, double 77-92%, Kahan 78-90%, double-float 75-91%; "
     "fused_one_pass 5-86% / 3-47% / 2-33% / 2-30% (docs/results/batched_scan-fitted-h100-2026-11-23.txt, "
     "batched_scan-blockscan-trim-h100-2026-11-23.txt)"},
    {FUSED_MAX_LEN, AccumClass::wide_only, "fused_pipelined_lazy_bulk",
     "H100, 10,000 x 10,000: double 91.8-93.1%, Kahan 89.7-90.6%, double-float 89.2-90.1% of copy; at 8,000 "
     "samples 91.0 / 85.8 / 80.2% against fused_one_pass's 51.3 / 36.5 / 33.2% "
     "(docs/results/batched_scan-h100-2026-11-23f.txt, batched_scan-fitted-ladders-h100-2026-11-23.txt)"},
    {PIPELINED_MIN_LEN - 1, AccumClass::float_only, "fused_one_pass",
     "H100, 8,000 float samples: 92.4% of copy against fused_pipelined_bulk's 80.4% "
     "(docs/results/batched_scan-fitted-ladders-h100-2026-11-23.txt)"},
    {FUSED_MAX_LEN, AccumClass::float_only, "fused_pipelined_bulk",
     "H100, 10,000 x 10,000 float: 94.5-95.4% of copy, 3.35-3.37x CUB; fused_one_pass 87.4% "
     "(docs/results/batched_scan-h100-2026-11-23f.txt, batched_scan-final-h100-2026-11-24.txt)"},
    {std::numeric_limits<std::size_t>::max(), AccumClass::any, "multi_tile_resident_self",
     "H100, 1,000 x 10^5 / 100 x 10^6: float 88.8 / 85.0%, double 84.7 / 82.4%, Kahan 79.4 / 81.8%, "
     "double-float 77.4 / 81.6% of copy, 1.4-2.0x the three-launch rungs; rows past the resident capacity "
     "(10 x 10^7) streamed at 59.8-65.1%, chained forward 78.2% (1.38x CUB) "
     "(docs/results/batched_scan-one-tile-carries-h100-2026-11-24.txt, batched_scan-final-h100-2026-11-24.txt, "
     "batched_scan-chained-h100-2026-11-24.txt)"},
};

constexpr bool rule_takes(const PickRule& r, Accum a) {
  switch (r.accums) {
    case AccumClass::any: return true;
    case AccumClass::float_only: return a == Accum::native;
    case AccumClass::wide_only: return a != Accum::native;
  }
  return false;
}

// The first rule that takes rows of `len` samples with accumulator `a`.
constexpr const PickRule& pick_rule(std::size_t len, Accum a) {
  for (const PickRule& r : kPickRules)
    if (len <= r.max_len && rule_takes(r, a)) return r;
  return kPickRules[std::size(kPickRules) - 1];  // unreachable: the last rule takes every row
}

static_assert(pick_rule(128, Accum::native).variant == "short_rows" &&
                  pick_rule(129, Accum::native).variant == "fused_fitted" &&
                  pick_rule(256, Accum::dfloat).variant == "short_rows" &&
                  pick_rule(8191, Accum::native).variant == "fused_one_pass" &&
                  pick_rule(8192, Accum::native).variant == "fused_pipelined_bulk" &&
                  pick_rule(8000, Accum::kahan).variant == "fused_pipelined_lazy_bulk" &&
                  pick_rule(FUSED_MAX_LEN + 1, Accum::native).variant == "multi_tile_resident_self",
              "the rules in ladder order");

}  // namespace tessera::batched_scan_impl
