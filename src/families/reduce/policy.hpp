// Which variant tessera::reduce picks, as data: the first rule whose shape
// matches wins. Each rule carries the measurement that chose it (GPU, size,
// % of ceiling or speed-up, results file and commit); docs/reduce.md
// ("Default policy") says the same in prose. reduce_default_variant()
// (api_entries.cpp) reads this table, and the harness's api_pick with it.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/gpu_present.hpp"
#include "families/reduce/contract.hpp"

namespace tessera::reduce_impl {

struct PolicyRule {
  bool (*matches)(const ReduceSpec&);
  std::string_view variant;
  std::string_view evidence;
};

inline bool any_shape(const ReduceSpec&) { return true; }

#if TESSERA_HAVE_CUDA
inline constexpr PolicyRule kGpuPolicy[] = {
    // One rule: no type, operator, accumulator or size measured so far makes
    // another rung faster than single_pass by more than the run-to-run noise.
    {any_shape, "single_pass",
     "H100, 2^28 elements: float sum 3082 GB/s = 103% of copy, 1.02x cub_device_reduce; every bench problem "
     "(four float accumulators, double, int32, int64, max, min) 1.01-1.07x CUB "
     "(docs/results/reduce-h100-2026-11-22.json, 735c72b); 2^24 floats 2.04-2.08 TB/s against CUB's 1.94-1.98 (10_single_pass.cu's header)"},
};
#endif
// Without a GPU (a CPU-only build, or a CUDA build on a machine with none).
inline constexpr PolicyRule kCpuPolicy[] = {
    {any_shape, "cpu_openmp", "no GPU: pointers are host pointers; the parallel CPU rung"},
};

// The variant of the first rule that matches (the last rule matches every
// shape), from the GPU's table when there is a GPU.
template <std::size_t N>
std::string_view first_match(const PolicyRule (&rules)[N], const ReduceSpec& spec) {
  for (const PolicyRule& rule : rules)
    if (rule.matches(spec)) return rule.variant;
  return rules[N - 1].variant;
}
inline std::string_view policy_pick(const ReduceSpec& spec, bool gpu) {
#if TESSERA_HAVE_CUDA
  if (gpu) return first_match(kGpuPolicy, spec);
#endif
  return first_match(kCpuPolicy, spec);
}
// What a default call runs on this machine.
inline std::string_view policy_pick(const ReduceSpec& spec) { return policy_pick(spec, api::gpu_present()); }

}  // namespace tessera::reduce_impl
