// Step 5, occupancy row (lab) — the fused one-pass kernel
// (src/families/batched_scan/05_fused_one_pass.cu)
// compiled for more resident 384-thread blocks per SM: __launch_bounds__'s
// MIN_BLOCKS from a per-accumulator table (tuning as data, below).
//
// Over fused_one_pass: ptxas gives that rung 64 registers with float
// accumulation (2 blocks per SM), 168 with Kahan and double-float and 136
// with double (1 block per SM). A block runs load -> scan -> store strictly
// in turn, so with 1-2 blocks per SM DRAM idles while the tiles are scanned
// and drained (82% of copy with float, 60-64% with the 8-byte accumulators,
// measured on the H100). More blocks per SM overlap one tile's scan with
// another's load.
//
// Bottleneck: DRAM bandwidth. Expected on 10,000 x 10,000: float ~88% of
// copy (3 blocks), Kahan and double-float ~75% (2 blocks), double unchanged
// (~60%: its row equals fused_one_pass). Measured (H100, forward_backward,
// docs/results/batched_scan-h100-2026-11-23b.txt): float 82.6%, double
// 60.4%, Kahan 63.8%, double-float 61.4% (fused_one_pass 87.4 / 60.1 / 42.8
// / 39.8% in that run); the pipelined rungs beat both, so the API never
// picks it. Its occupancy table (tile_kernel.cuh's occupancy_blocks) lives
// on in multi_tile_occupancy.
#include "batched_scan/lab_rungs.hpp"
#include "families/batched_scan/tile_kernel.cuh"

namespace tessera::batched_scan_impl {

void run_fused_occupancy(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  gpu_detail::dispatch_accum("fused_occupancy", s.accum, [&]<class R>() {
    gpu_detail::launch_tile_kernel<R, false, gpu_detail::occupancy_blocks<R>()>(call, 1, nullptr,
                                                                     "batched_scan_fused_occupancy_kernel");
  });
}
std::size_t ws_fused_occupancy(const ScanSpec&) { return 0; }
bool supports_fused_occupancy(const ScanSpec& s) { return s.len <= FUSED_MAX_LEN; }

}  // namespace tessera::batched_scan_impl
