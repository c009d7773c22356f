// batched_scan step 0: the serial CPU reference every other rung is checked
// against (seed 002's cpu_scansum_kernel, with the accumulator made exact:
// compensated long double, the forward result never rounded to float).
#include <vector>

#include "families/batched_scan/cpu_rungs.hpp"
#include "families/batched_scan/reference.hpp"

namespace tessera::batched_scan_impl::cpu {

void run_reference(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (s.rows == 0 || s.len == 0) return;
  std::vector<long double> scratch;
  for (std::size_t r = 0; r < s.rows; ++r)
    reference_row(call.in + r * s.in_pitch, call.out + r * s.out_pitch, s.len, s.direction, s.exclusive, scratch);
}

}  // namespace tessera::batched_scan_impl::cpu
