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
     "guarded variant is csr_scalar plus one block barrier when no row passes 32 entries: measured 2026-11-28 "
     "float 0.3145 ms (csr_scalar 0.3108), double 0.4662 (csr_scalar 0.4669); no long row can stall it "
     "(csr_scalar: 26 ms on the power law)"},
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
// Measured on the H100 (2026-11-28, `tessera bench spmv`: the bench marks
// this table's pick with `*` and times the SpMV with the format already
// built, what a plan reuses; docs/results/spmv-h100-2026-11-28.json). Each
// rule's pick was confirmed there; "best" is the fastest row of the problem.
// The plan is within 10 % of it on all six bench matrices.
inline constexpr PlanRule kGpuPlanPolicy[] = {
    {plan_short_rows, "csr_scalar_guarded",
     "measured: mean row length <= 8, a thread per row. laplace2d 4096^2 (mean 5.0, cv 0.01), H100: float 0.3145 ms "
     "= 1.24x cusparse, 99.2 % of copy (best csr_scalar 0.3108, 1.2 % off; jds 0.3282); double 0.4662 ms = best, "
     "1.39x cusparse"},
    {plan_regular_rows, "jds",
     "measured at mean 26.6: regular rows (cv <= 0.25, max <= 2x mean, mean 8-64), jds, the format a plan can "
     "afford. stencil27 128^3 (cv 0.07, max 27), H100: float jds 0.1746 ms = best, 1.04x cusparse, 91.2 % of copy "
     "(csr_subwarp_vec4 0.1764, csr_nnz_split 0.1965); double 0.2546 ms = best, 1.24x. Means 8-16 and 40-64: not "
     "measured"},
    {plan_any, "csr_nnz_split",
     "measured: irregular rows (high cv or a row far past the mean), tiles of equal nonzeros. powerlaw 2M (mean 16, "
     "cv > 10, max 3e5), H100: float 0.3105 ms, best tessera rung (jds 0.4141, sell 0.4881, csr_subwarp_vec4 0.5454), "
     "0.96x cusparse (0.2993, best: 3.7 % off); double 0.3593 vs cusparse 0.3291 (9.2 % off)"},
};
#endif
inline constexpr PlanRule kCpuPlanPolicy[] = {
    {plan_any, "cpu_openmp",
     "host arrays (an unnamed plan runs where its arrays live) or no GPU: the parallel CPU rung, 8.3-16.7x "
     "cpu_reference on the bench matrices (16 host threads, 2026-11-28)"},
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
