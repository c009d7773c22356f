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

#if TESSERA_HAVE_CUDA
inline constexpr PolicyRule kGpuPolicy[] = {
    // Only the CSR rungs qualify: the public API takes CSR, and a format rung
    // would convert the matrix on every call. csr_nnz_split is the one whose
    // speed no row-length distribution can stall.
    {any_shape, "csr_nnz_split",
     "by construction (balanced tiles of 1024 nonzeros, deterministic); not yet measured: the lead's H100 runs of "
     "tessera bench spmv fill docs/spmv.md"},
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
