// Step 5 — tessera's fused one-pass: a row of up to FUSED_MAX_LEN samples
// (10,749; the seismic 10,000) is one tile of one block (tile_kernel.cuh):
// read once (cp.async, 16-byte), scanned forward and backward on chip in the
// accumulator (the forward result is never rounded or written), written once
// (float4 stores). Every accumulator (float, double, Kahan, double-float)
// and every direction; grid-stride over rows.
//
// Over step 4: forward_backward reads and writes each sample once instead of
// twice, and 384 threads x 28 independent samples replace a warp's serial
// chunk chain, so the latency is hidden by the bytes in flight (42 KB per
// block) rather than by warps.
//
// Bottleneck: DRAM bandwidth, with a dip per tile between its load and its
// store (no double buffering: 1-2 resident blocks per SM overlap each other
// instead). Expected on 10,000 x 10,000: ~85% of the copy bandwidth with
// float accumulation, ~80% with double-float (two block scans of 8-byte
// states), double lower on the H100's FP64 rate but still memory-bound.
#include "families/batched_scan/tile_kernel.cuh"

namespace tessera::batched_scan_impl {

void run_fused_one_pass(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  gpu_detail::dispatch_accum("fused_one_pass", s.accum, [&]<class R>() {
    gpu_detail::launch_tile_kernel<R, false>(call, 1, nullptr, "batched_scan_fused_one_pass_kernel");
  });
}
std::size_t ws_fused_one_pass(const ScanSpec&) { return 0; }
bool supports_fused_one_pass(const ScanSpec& s) { return s.len <= FUSED_MAX_LEN; }

}  // namespace tessera::batched_scan_impl
