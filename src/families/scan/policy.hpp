// Which variant tessera::inclusive_scan / exclusive_scan pick, as data: the
// first rule whose shape matches wins. Each rule carries the measurement that
// chose it (GPU, size, % of ceiling and speed-up, results file and commit);
// docs/scan.md ("Default policy") says the same in prose.
// scan_default_variant() (api_entries.cpp) reads this table, and the
// harness's api_pick with it.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/gpu_present.hpp"
#include "families/scan/contract.hpp"

namespace tessera::scan_impl {

struct PolicyRule {
  bool (*matches)(const ScanSpec&);
  std::string_view variant;
  std::string_view evidence;
};

// float, int32 or uint32 elements with the native accumulator (sum, min, max).
inline bool four_byte_elements_native(const ScanSpec& s) {
  return (s.dtype == Dtype::f32 || s.dtype == Dtype::i32 || s.dtype == Dtype::u32) && s.accum == Accum::native;
}
inline bool any_shape(const ScanSpec&) { return true; }

#if TESSERA_HAVE_CUDA
inline constexpr PolicyRule kGpuPolicy[] = {
    // Any size, inclusive or exclusive: the variant itself runs the
    // early-publishing kernel below sm_90.
    {four_byte_elements_native, "lookback_bulk",
     "H100, 2^28 elements: float sum 92.1% of copy = 1.13x cub_device_scan, int32 sum 92.6% = 1.14x, against "
     "84.0% for the best one-tile look-back (docs/results/scan-bulk-h100-2026-11-23.txt and "
     "scan-bulk-int32-h100-2026-11-23.txt, 5d4c58e)"},
    // 8-byte elements and the wider float accumulators: the only look-back
    // row compiled for them.
    {any_shape, "lookback",
     "H100, float sum 2^28: double accumulator 62.6% of copy = 1.12x cub_device_scan, Kahan 53.2% = 2.58x, "
     "double-float 53.3% = 2.59x (docs/results/scan-l2-queue-h100-2026-11-23.json, 23efa13)"},
};
#endif
// Without a GPU (a CPU-only build, or a CUDA build on a machine with none).
inline constexpr PolicyRule kCpuPolicy[] = {
    {any_shape, "cpu_openmp", "no GPU: pointers are host pointers; the parallel CPU rung"},
};

// The variant of the first rule that matches (the last rule matches every
// shape), from the GPU's table when there is a GPU.
template <std::size_t N>
std::string_view first_match(const PolicyRule (&rules)[N], const ScanSpec& spec) {
  for (const PolicyRule& rule : rules)
    if (rule.matches(spec)) return rule.variant;
  return rules[N - 1].variant;
}
inline std::string_view policy_pick(const ScanSpec& spec, bool gpu) {
#if TESSERA_HAVE_CUDA
  if (gpu) return first_match(kGpuPolicy, spec);
#endif
  return first_match(kCpuPolicy, spec);
}
// What a default call runs on this machine.
inline std::string_view policy_pick(const ScanSpec& spec) { return policy_pick(spec, api::gpu_present()); }

}  // namespace tessera::scan_impl
