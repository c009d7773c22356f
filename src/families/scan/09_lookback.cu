// Step 9 — tessera's scan: single pass with decoupled look-back (Merrill &
// Garland 2016), the step that removes step 8's chain.
//
// What it changes over step 8:
//   - a tile publishes its *aggregate* as soon as it has reduced its data,
//     before it knows its prefix, so a successor never waits for the whole
//     chain: it combines the aggregates of its predecessors back to the
//     nearest published inclusive prefix (tessera/blocks/lookback.cuh);
//   - the look-back is one warp reading 4 predecessors per lane, 128 per round
//     trip to L2, with a ballot to find the nearest inclusive prefix: prefixes
//     propagate 128 tiles per round trip instead of 1;
//   - flag and value share one 8- or 16-byte word written and read with single
//     relaxed accesses: no __threadfence anywhere, the status array (8-16 bytes
//     per 16 KiB tile) stays in L2;
//   - the data stays in registers: 16-byte vector loads and stores, 4 vectors
//     per thread (16 floats), each warp owning a contiguous stretch of the
//     tile; per-row shuffle scans instead of a shared-memory transpose
//     (tessera/blocks/lookback_tile.cuh). Any pointer alignment: tiles sit on
//     16-byte boundaries of the input, the first tile's head is skipped.
// The tile index still comes from an atomic counter (no deadlock whatever the
// block scheduling); the counter and the status words are cleared by one
// cudaMemsetAsync before the kernel.
//
// Bottleneck: DRAM, read n + write n: the data moves exactly once. Expected:
// >= 92% of the copy bandwidth for float sums at 2^28 and >= 1.1x
// cub::DeviceScan (target of issue 3); the wider float accumulators within a
// few percent (their flops hide under the memory time), 8-byte types the same
// bandwidth. Measured (H100, 2^28): float sum 55% of copy = 0.68x CUB, the
// per-tile look-back latency being the bound; float sums with wider
// accumulators 53-63% = 1.1-2.6x CUB (docs/scan.md).
//
// The same kernel under other policies (larger tiles, narrower look-back
// windows, no back-off, bigger blocks) and a persistent variant of it were
// measured and rejected: lab/scan/tuning_lookback.cuh has each with its
// number. The product keeps this policy for every type and accumulator (the
// only step-9 row that takes them all); 4-byte native scans run lookback_bulk.
#include <cuda_runtime.h>

#include "families/scan/cuda_rungs.hpp"
#include "families/scan/hierarchy.cuh"
#include "families/scan/lookback_run.cuh"

namespace tessera::scan_impl {

void run_lookback(const ScanCall& call) {
  dispatch_scan_or_throw("lookback", call.spec, [&]<class R>() {
    using S = ScanOf<R>;
    run_lookback<LookbackPrimary>("scan_lookback_kernel", S{}, static_cast<const typename S::in_t*>(call.in),
                                  static_cast<typename S::out_t*>(call.out), call.spec.n, call.spec.exclusive, nullptr,
                                  call.workspace, call.stream);
  });
}
std::size_t ws_lookback(const ScanSpec& spec) { return lookback_workspace<LookbackPrimary>(spec); }
bool supports_lookback(const ScanSpec& spec) { return scan_spec_supported(spec); }

}  // namespace tessera::scan_impl
