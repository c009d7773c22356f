// Step 5, pipelined — the fused one-pass scan (a row of up to FUSED_MAX_LEN
// samples per tile, forward and backward on chip in the accumulator) run by
// persistent blocks that keep the next rows' loads in flight while they scan
// and store the current one.
//
// Over fused_one_pass: that rung's block runs load -> scan -> store strictly
// in turn, so with 1-2 resident blocks per SM the SM has no load in flight
// while it scans and drains a row (82% of copy with float, 60-64% with the
// 8-byte accumulators on the H100). Here each block owns STAGES row buffers
// in dynamic shared memory and cp.async's commit groups: before scanning row
// i it issues row i + STAGES - 1 and waits only for row i
// (cp.async.wait_group STAGES - 2), so every SM always has one to two rows
// (40-80 KB) of loads in flight, and its stores (st.global.cs, 16-byte)
// drain behind them. The tile is re-cut as 896 threads x 12 samples (the
// same 10,752-sample tile): a thread's serial chain is 12 accumulator steps
// instead of 28, and 28 warps per SM instead of 12 hide the latency of the
// double-float and Kahan chains, which is what held the 8-byte accumulators
// at ~60% (their scan, ~45 flops a sample for forward_backward, now costs
// ~2 us of a row's ~3.7 us DRAM time per SM and overlaps it).
//
// The 28-warp block suffix scan is a warp scan of the warp totals (not a
// serial walk over 28 of them), and full threads run their item loops with
// constant bounds (scan_tile's FAST): ~50 instructions per double-float
// sample for forward_backward, ~2.5 us of issue per row per SM.
// Barriers per row drop from 6 to 4 (forward_backward): the two block scans
// use separate scratch arrays, and the outputs overwrite the row's buffer
// right after the scan (every thread read its items before the scan's
// first barrier). With one block per SM every barrier idles the whole SM,
// so they count against the ~3.7 us a row may take.
//
// Bottleneck: DRAM bandwidth. Expected on 10,000 x 10,000 forward_backward:
// float ~93-95% of the copy bandwidth, double-float, Kahan and double ~88-92%.
// Tuning rows: fused_pipelined2 (2 stages: one row of loads in flight;
// expected a few points below) and fused_pipelined_direct (3 stages, each
// thread stores its 12 outputs as 3 float4s straight from registers when the
// output row's alignment allows: no staging, 3 barriers per row; 48-byte
// strided float4 stores cost L2 twice the write requests, so it may win or
// lose a few points), and fused_pipelined_pair (fused_one_pass's 384 x 28
// tile, 2 stages, two blocks per SM: two blocks interleave their barriers,
// but 28-item chains; expected float ~90-94%, wide ~80-88%).
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined, WidePolicy, 3, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined2, WidePolicy, 2, false)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_direct, WidePolicy, 3, true)
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_pair, PairPolicy, 2, false)

}  // namespace tessera::batched_scan_impl
