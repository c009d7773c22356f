// Which variant tessera::spmv picks, as data: the first rule whose shape
// matches wins. Each rule carries the measurement that chose it; docs/spmv.md
// ("Default policy") says the same in prose. spmv_default_variant()
// (api_entries.cpp) reads this table, and the harness's api_pick with it.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/gpu_present.hpp"
#include "families/spmv/contract.hpp"

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

}  // namespace tessera::spmv_impl
