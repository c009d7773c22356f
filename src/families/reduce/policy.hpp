// Which variant tessera::reduce picks, as data: the first rule whose shape
// matches wins. Each rule carries the measurement that chose it (GPU, size,
// % of ceiling or speed-up, results file and commit); docs/reduce.md
// ("Default policy") says the same in prose. reduce_default_variant()
// (api_entries.cpp) reads this table, and the harness's api_pick with it.
#pragma once

#include <iterator>
#include <string_view>

#include "families/reduce/contract.hpp"

namespace tessera::reduce_impl {

struct PolicyRule {
  bool (*matches)(const ReduceSpec&);
  std::string_view variant;
  std::string_view evidence;
};

inline bool any_shape(const ReduceSpec&) { return true; }

#if TESSERA_HAVE_CUDA
inline constexpr PolicyRule kPolicy[] = {
    // One rule: no type, operator, accumulator or size measured so far makes
    // another rung faster than single_pass by more than the run-to-run noise.
    {any_shape, "single_pass",
     "H100, 2^28 elements: float sum 3082 GB/s = 103% of copy, 1.02x cub_device_reduce; every bench problem "
     "(four float accumulators, double, int32, int64, max, min) 1.01-1.07x CUB "
     "(docs/results/reduce-h100-2026-11-22.json, 735c72b); 2^24 floats 2.04-2.08 TB/s against CUB's 1.94-1.98 (10_single_pass.cu's header)"},
};
#else
inline constexpr PolicyRule kPolicy[] = {
    {any_shape, "cpu_openmp", "CPU-only build: pointers are host pointers; the parallel CPU rung"},
};
#endif

// The variant of the first rule that matches (the last rule matches every shape).
inline std::string_view policy_pick(const ReduceSpec& spec) {
  for (const PolicyRule& rule : kPolicy)
    if (rule.matches(spec)) return rule.variant;
  return std::end(kPolicy)[-1].variant;
}

}  // namespace tessera::reduce_impl
