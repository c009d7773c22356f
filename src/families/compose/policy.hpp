// The compositions' default policy: which variant the API picks for a call,
// as data. The first rule whose pattern and call shape match wins; n does not
// matter (every rule held at every size measured). Each rule carries the
// measurement that chose it; docs/compose.md has the tables behind them.
#pragma once

#include <string_view>

#include "families/compose/contract.hpp"

namespace tessera::compose_impl {

// Which calls of a pattern a rule covers.
enum class CallShape {
  any,
  by_predicate,  // compact / partition with a predicate
  flagged,       // compact by a flag array
  bytes,         // uint8 elements
  wider,         // elements wider than a byte
};

struct PolicyRule {
  Family family;
  CallShape shape;
  std::string_view variant;
  std::string_view evidence;  // GPU, size, result; the results file or commit
};

// CUDA builds.
inline constexpr PolicyRule GPU_POLICY[] = {
    {Family::map, CallShape::any, "vectorized",
     "H100, 2^28 float x2: 100.2% of copy, 0.99x cub_transform (docs/results/compose-h100-2026-11-23.txt, commit "
     "1887700)"},
    {Family::adjacent_difference, CallShape::any, "vectorized_shuffle",
     "H100, 2^28 float: 99.5% of copy, 0.99x cub_adjacent_difference (docs/results/compose-h100-2026-11-23.txt, "
     "commit 1887700)"},
    {Family::compact, CallShape::flagged, "single_pass_early",
     "H100, 2^28 float flagged 50%: 76.4% of copy, 1.07x cub_select_flagged; single_pass_bulk 0.50x (its aggregator "
     "reads the flags byte by byte; docs/results/compose-h100-2026-11-23b.txt, commits 4235965 and c2bac68)"},
    {Family::compact, CallShape::by_predicate, "single_pass_bulk",
     "H100, 2^28 float x>t 5/50/95%: 85.2/89.0/91.0% of copy, 1.36/1.17/1.24x cub_select_if; int64 2^27 50%: 1.07x "
     "(single_pass_early 0.93x) (docs/results/compose-agg8-h100-2026-11-23.txt, "
     "compose-aggregators-ab-h100-2026-11-23.txt, commit 4e46061)"},
    {Family::partition, CallShape::any, "single_pass_wide",
     "H100, 2^28 float x>t 50/5%: 72.9/73.1% of copy, 1.03/1.04x cub_partition_if; single_pass_early 0.91x "
     "(docs/results/compose-h100-2026-11-23b.txt, commit 4235965)"},
    {Family::unique, CallShape::any, "single_pass_bulk",
     "H100, 2^28 int32 runs 5/50/95%: 82.6/88.8/90.6% of copy, 1.32/1.19/1.25x cub_select_unique; int64 2^27 50%: "
     "1.07x (single_pass_early 0.80x) (docs/results/compose-agg8-h100-2026-11-23.txt, commit 4e46061)"},
    {Family::find_unique, CallShape::bytes, "flag_table_shared",
     "H100, 2^30 text bytes: 93.6% of copy, 23.5x cub_sort_unique (docs/results/compose-h100-2026-11-23.txt, commit "
     "1887700)"},
    {Family::find_unique, CallShape::wider, "sort_based",
     "the only GPU rung for an unbounded domain besides the vendor (H100, 2^24 int32: 0.73x cub_sort_unique, "
     "docs/results/compose-h100-2026-11-23.txt, commit 1887700)"},
    {Family::rle, CallShape::any, "single_pass_lean",
     "H100, 2^28 int32 runs 10%: 53.6% of copy, 1.60x cub_run_length_encode; the first status (lab: single_pass) "
     "0.71x (headline run of commit f020937, docs/results/headline-before-h100-2026-11-26.json; docs/compose.md, rle)"},
};

// CPU-only builds (and the harness's CPU runs): cpu_openmp, except where
// these rules say otherwise.
inline constexpr PolicyRule CPU_POLICY[] = {
    {Family::find_unique, CallShape::wider, "cpu_reference", "cpu_openmp's private 256-entry tables cover bytes only"},
};

constexpr bool matches(CallShape shape, const Spec& s) {
  switch (shape) {
    case CallShape::any: return true;
    case CallShape::by_predicate: return !s.flagged;
    case CallShape::flagged: return s.flagged;
    case CallShape::bytes: return s.dtype == Dtype::u8;
    case CallShape::wider: return s.dtype != Dtype::u8;
  }
  return false;
}

// The variant the API picks for `spec`: from GPU_POLICY when `gpu` (every
// pattern has a rule there), else from CPU_POLICY.
constexpr std::string_view default_variant(const Spec& spec, bool gpu) {
  const auto pick = [&](const auto& rules, std::string_view otherwise) {
    for (const PolicyRule& r : rules)
      if (r.family == spec.family && matches(r.shape, spec)) return r.variant;
    return otherwise;
  };
  return gpu ? pick(GPU_POLICY, "cpu_openmp") : pick(CPU_POLICY, "cpu_openmp");
}

}  // namespace tessera::compose_impl
