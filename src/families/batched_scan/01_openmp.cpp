// batched_scan step 1: OpenMP over rows (seed 002's CPU loop, one row per
// iteration, rows spread over the threads). Each thread keeps its own
// forward-result buffer for forward_backward; within a row the scan is the
// serial loop of row_scan.hpp with the requested accumulator.
#include <omp.h>

#include <cstdint>
#include <vector>

#include "tessera/blocks/reducers.hpp"
#include "families/batched_scan/cpu_rungs.hpp"
#include "families/batched_scan/row_scan.hpp"
#include "tessera/core/error.hpp"

namespace tessera::batched_scan_impl::cpu {

void run_openmp(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (s.rows == 0 || s.len == 0) return;
  const bool known = dispatch_reducer(Dtype::f32, Op::sum, s.accum, [&]<class R>() {
    const auto rows = static_cast<std::int64_t>(s.rows);
#pragma omp parallel
    {
      std::vector<typename R::acc_t> f;
      // Dynamic: rows are equal, but a few long rows over many threads should
      // not leave threads idle behind a static split.
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t r = 0; r < rows; ++r) {
        const auto row = static_cast<std::size_t>(r);
        scan_row<R>(call.in + row * s.in_pitch, call.out + row * s.out_pitch, s.len, s.direction, s.exclusive, f);
      }
    }
  });
  if (!known) throw Error("batched_scan: cpu_openmp: unknown accumulator");
}

}  // namespace tessera::batched_scan_impl::cpu
