// Which variant tessera::spmv picks, as data: the first rule whose shape
// matches wins. Each rule carries the measurement that chose it; docs/spmv.md
// ("Default policy") says the same in prose. spmv_default_variant()
// (api_entries.cpp) reads this table, and the harness's api_pick with it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/gpu_present.hpp"
#include "families/spmv/contract.hpp"
#include "families/spmv/formats.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl {

struct PolicyRule {
  bool (*matches)(const SpmvSpec&);
  std::string_view variant;
  std::string_view evidence;
};

inline bool any_shape(const SpmvSpec&) { return true; }

// The row-length statistic the pick can afford: the mean, from rows and nnz
// alone (a max or a spread would read the offsets on the device, a pass and
// a synchronisation on every call, more than the pick can win on the
// Laplacian: 0.31 vs 0.375 ms). The mean cannot see one huge row; that is
// why the short-row pick is csr_scalar_guarded, which no row can stall.
inline constexpr double SHORT_ROWS_MEAN = 8.0;
inline bool short_rows(const SpmvSpec& s) { return s.rows > 0 && double(s.nnz) <= SHORT_ROWS_MEAN * double(s.rows); }

#if TESSERA_HAVE_CUDA
// Only the CSR rungs qualify: the public API takes CSR, and a format rung
// (jds, ell: 1.04x and 0.86x cuSPARSE on the 27-point stencil) would convert
// the matrix on every call. Measured on the H100 (2026-11-27, `tessera bench
// spmv`, time vs cusparse_spmv; docs/spmv.md has the table).
inline constexpr PolicyRule kGpuPolicy[] = {
    {short_rows, "csr_scalar_guarded",
     "mean row length <= 8: a thread per row wins. laplace2d 4096^2 (mean 5), H100: float csr_scalar 0.311 ms = "
     "100 % of copy, 1.24x cusparse (csr_nnz_split 1.03x); double csr_scalar 1.38x (csr_nnz_split 1.20x). The "
     "guarded variant is csr_scalar plus one block barrier when no row passes 32 entries (same time expected), and "
     "no long row can stall it (csr_scalar: 26 ms on the power law)"},
    {any_shape, "csr_nnz_split",
     "longer or irregular rows: the CSR rung whose speed no row-length distribution changes. H100 float: "
     "stencil27 128^3 (mean 26) 0.92x cusparse (csr_scalar 0.40x, csr_vector 0.44x; only the jds format beats "
     "cusparse, 1.04x); powerlaw 2M rows (mean 16, rows past 1e5) 0.97x, every other rung <= 0.45x; double "
     "stencil27 1.03x"},
};
#endif
// Without a GPU (a CPU-only build, or a CUDA build on a machine with none).
inline constexpr PolicyRule kCpuPolicy[] = {
    {any_shape, "cpu_openmp", "no GPU: pointers are host pointers; the parallel CPU rung"},
};

template <std::size_t N>
std::string_view first_match(const PolicyRule (&rules)[N], const SpmvSpec& spec) {
  for (const PolicyRule& rule : rules)
    if (rule.matches(spec)) return rule.variant;
  return rules[N - 1].variant;
}
inline std::string_view policy_pick(const SpmvSpec& spec, bool gpu) {
#if TESSERA_HAVE_CUDA
  if (gpu) return first_match(kGpuPolicy, spec);
#else
  (void)gpu;
#endif
  return first_match(kCpuPolicy, spec);
}
inline std::string_view policy_pick(const SpmvSpec& spec) { return policy_pick(spec, api::gpu_present()); }

// ---- The plan's policy (tessera::SpmvPlan): a plan reads the row lengths
// once (the histogram: one pass over the offsets) and converts once, so it
// may pick a format rung, by the row-length statistics. First match wins;
// a rule whose variant does not support the shape is skipped.
inline SpmvRowStats row_length_stats(const formats::RowStats& h, std::int64_t rows, std::int64_t nnz) {
  SpmvRowStats s;
  s.rows = rows;
  s.nnz = nnz;
  s.max_length = h.max_length;
  s.empty_rows = h.histogram.empty() ? 0 : h.histogram[0];
  if (rows <= 0) return s;
  s.mean = double(nnz) / double(rows);
  double sum_sq = 0;  // sum over rows of (length - mean)^2, from the bins
  for (std::size_t len = 0; len < h.histogram.size(); ++len)
    sum_sq += double(h.histogram[len]) * (double(len) - s.mean) * (double(len) - s.mean);
  s.cv = s.mean > 0 ? std::sqrt(sum_sq / double(rows)) / s.mean : 0.0;
  return s;
}

struct PlanRule {
  bool (*matches)(const SpmvRowStats&);
  std::string_view variant;
  std::string_view evidence;
};

// Regular: every row near the mean (low spread, no outlier), rows long
// enough that a thread-per-row schedule is not already at copy speed.
inline constexpr double REGULAR_MAX_CV = 0.25;           // stencil27 128^3: 0.07; powerlaw 2M: > 10
inline constexpr double REGULAR_MAX_OVER_MEAN = 2.0;     // stencil27: 27 / 26.6
inline constexpr double REGULAR_MEAN_MIN = 8.0;          // above the short-row rule
inline constexpr double REGULAR_MEAN_MAX = 64.0;         // measured at 26.6 only: the upper end is to be measured
inline bool plan_short_rows(const SpmvRowStats& s) { return s.rows > 0 && s.mean <= SHORT_ROWS_MEAN; }
inline bool plan_regular_rows(const SpmvRowStats& s) {
  return s.mean > REGULAR_MEAN_MIN && s.mean <= REGULAR_MEAN_MAX && s.cv <= REGULAR_MAX_CV &&
         double(s.max_length) <= REGULAR_MAX_OVER_MEAN * s.mean;
}
inline bool plan_any(const SpmvRowStats&) { return true; }

#if TESSERA_HAVE_CUDA
// Measured on the H100 (2026-11-27, `tessera bench spmv`, the harness times
// the SpMV with the format already built: what a plan reuses; docs/results/
// spmv-h100-2026-11-27.json). "best" is the fastest row of the problem.
inline constexpr PlanRule kGpuPlanPolicy[] = {
    {plan_short_rows, "csr_scalar_guarded",
     "mean row length <= 8: a thread per row. laplace2d 4096^2 (mean 5.0, cv 0.01): float 0.314 ms (best "
     "csr_scalar 0.311, jds 0.327, cusparse 0.383) = 1.22x cusparse; double 0.467 ms (best, 1.38x)"},
    {plan_regular_rows, "jds",
     "regular rows (cv <= 0.25, max <= 2x mean, mean 8-64): jds, the format a plan can afford. stencil27 128^3 "
     "(mean 26.6, cv 0.07, max 27): float jds 0.174 ms = best, 1.04x cusparse (csr_nnz_split 0.196, "
     "csr_subwarp_vec4 0.184); double jds 0.254 ms = best, 1.23x (csr_nnz_split 0.305). Means 40-64: to be "
     "measured"},
    {plan_any, "csr_nnz_split",
     "irregular rows (high cv or a row far past the mean): tiles of equal nonzeros. powerlaw 2M (mean 16, cv > 10, "
     "max 3e5): float 0.309 ms, best tessera rung (jds 0.412, sell 0.485, csr_scalar_guarded 0.747), 0.97x "
     "cusparse (0.299, the fastest row: 3 % off); double 0.353 vs cusparse 0.329 (7 % off)"},
};
#endif
inline constexpr PlanRule kCpuPlanPolicy[] = {
    {plan_any, "cpu_openmp", "no GPU: the parallel CPU rung"},
};

// The plan's pick: the first rule that matches and whose variant supports
// `spec` (supported: a predicate over the variant's name). Returns the rule.
template <std::size_t N, class Supported>
const PlanRule& first_plan_match(const PlanRule (&rules)[N], const SpmvRowStats& stats, Supported&& supported) {
  for (const PlanRule& rule : rules)
    if (rule.matches(stats) && supported(rule.variant)) return rule;
  return rules[N - 1];
}
template <class Supported>
const PlanRule& plan_policy_pick(const SpmvRowStats& stats, bool gpu, Supported&& supported) {
#if TESSERA_HAVE_CUDA
  if (gpu) return first_plan_match(kGpuPlanPolicy, stats, supported);
#else
  (void)gpu;
#endif
  return first_plan_match(kCpuPlanPolicy, stats, supported);
}

}  // namespace tessera::spmv_impl
