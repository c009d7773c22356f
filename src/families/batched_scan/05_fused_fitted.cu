// Step 5, fitted — the fused one-pass scan for rows of SHORT_ROW_MAX_LEN + 1
// (129) to FITTED_MAX_LEN (7,677) samples, with the tile cut to the row:
// the smallest tile of a ladder one warp apart (32 x 12 = 384 samples, then
// 32 x 20 = 640 up to 384 x 20 = 7,680; see run_ladder) that holds the row,
// run by fused_pipelined_lazy_bulk's kernel (pipelined_kernel.cuh:
// persistent blocks, the next rows' bulk copies in flight while one is
// scanned, two accumulator chains per thread, lazy double-float and Kahan
// sums) at as many blocks per SM as the tile allows.
//
// Over fused_one_pass for these rows: that rung gives every row the
// 384 x 28 tile (10,752 samples) of one block, so a row of 1,000 samples
// keeps 36 of 384 threads busy, and with 1-2 such blocks per SM only 4-8 KB
// of loads are in flight per SM; the pipelined fused rungs keep 1-2 rows in
// flight per SM but pay ~3.2 us of per-row work in one block. Here a row of
// 1,000 samples is one 64- or 96-thread block's tile, ~10 such blocks share an SM
// and each has its next two rows' copies in flight: ~90 KB per SM, above the
// latency-bandwidth product of the H100's DRAM, and the per-row work (the
// barriers and block scans of a few warps) overlaps across the blocks.
//
// Bottleneck: DRAM bandwidth for float; issue for the 8-byte accumulators
// (~40 instructions per double-float sample, plus each thread's fixed work
// per row). Measured on the H100 (forward_backward, ~400 MB batches; the
// tables below and in docs/batched_scan.md): float 78-93% of copy from 300
// to 7,000 samples (fused_one_pass 5-86%), double-float 75-91% (2-30%).
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

namespace {

// BLOCK x ITEMS samples per tile (ITEMS % 8 == 4: the conflict-free float4
// item reads), 2 lazy chains per thread, bulk row copies on sm_90 (the lean
// float4 loops elsewhere). Blocks per SM asked of ptxas: 1024 threads'
// worth for float (<= 64 registers), 768 for the 8-byte states (<= 85).
template <int B, int N>
struct FittedPolicy : gpu_detail::BulkLazyPolicy<2> {
  static constexpr int BLOCK = B;
  static constexpr int ITEMS = N;
  template <class R>
  static constexpr int min_blocks() {
    const int threads = std::is_same_v<typename R::acc_t, float> ? 1024 : 768;
    return threads / B < 32 ? threads / B : 32;
  }
};

template <class P>
constexpr bool valid_fitted = P::ITEMS % 8 == 4 && P::BLOCK % 32 == 0 &&  // (ITEMS % 8 == 4: 2 whole chains)
                              P::BLOCK * P::template min_blocks<DFloatSum>() <= 2048 &&
                              P::BLOCK * P::ITEMS <= static_cast<int>(TilePolicy::TILE);

// Runs the row on tile P when it fits (len + 3 for the alignment shift of its
// first sample), with STAGES row buffers per block.
template <class P, int STAGES>
bool run_if_fits(const ScanCall& call) {
  static_assert(valid_fitted<P>, "conflict-free items, whole chains and warps, smaller than the fused tile");
  if (call.spec.len + 3 > static_cast<std::size_t>(P::BLOCK) * P::ITEMS) return false;
  gpu_detail::run_fused_pipelined_rung<P, STAGES, false>(call, "fused_fitted", "batched_scan_fused_fitted_kernel");
  return true;
}

// The tiles: 32 x 12 (rows of up to 381 samples), then 32 x 20 ... 384 x 20,
// one warp apart (a row's tile has at most 640 samples past its end); float
// takes 64 x 12 ... 192 x 12 before 128 x 20 (see run_fused_fitted). 3 row
// buffers (two rows in flight) up to 3,072 samples, 2 for the larger tiles,
// whose third buffer would cost blocks per SM.
//
// Why 20 items past one warp: with 12 items per thread, each thread's fixed
// work per row (its share of the block scans, the tile traffic, the
// barriers) weighs about as much as 14 more items, and the 8-byte
// accumulators are issue-bound here (H100, one run per cell, % of copy;
// docs/results/batched_scan-fitted-ladders-h100-2026-11-23.txt):
//
//   row length            300   600  1000  2000  3000  4000  5500  7000
//   double-float  x 12   63.2  64.9  69.6  70.6  83.2  73.1  85.4  90.7
//                 x 20   48.5  84.0  80.8  85.2  88.6  87.0  85.5  90.7
//                 x 28   35.8  69.8  58.6  75.1  86.6  87.6  88.4  88.3
//   Kahan         x 12   65.9  67.9  72.3  73.5  86.4  75.1  88.2  90.8
//                 x 20   50.6  83.7  83.5  87.5  88.2  88.8  88.2  90.7
//   double        x 12   75.8  79.0  87.4  83.7  84.9  90.8  90.2  91.5
//                 x 20   73.3  82.8  83.9  86.2  89.0  92.4  90.6  91.9
//   float         x 12               88.4        88.3                93.0
//                 x 20               88.3        92.3                92.4
//
// (x 12 past 4,605 samples is the x 20 ladder.) 28 items win a few cells and
// lose more; 12 items win only the one-warp rows, where a 20-item tile
// would leave half its lanes idle.
template <int ITEMS, int WARPS, int LAST>
bool run_ladder(const ScanCall& call) {
  constexpr int B = 32 * WARPS;
  constexpr int STAGES = B * ITEMS <= 3072 ? 3 : 2;
  if (run_if_fits<FittedPolicy<B, ITEMS>, STAGES>(call)) return true;
  if constexpr (WARPS < LAST) return run_ladder<ITEMS, WARPS + 1, LAST>(call);
  else return false;
}

static_assert(384 * 20 - 3 == FITTED_MAX_LEN, "FITTED_MAX_LEN is the largest tile's row");

}  // namespace

void run_fused_fitted(const ScanCall& call) {
  if (!gpu_detail::has_work(call.spec)) return;
  // Float keeps 12 items up to 192 x 12 (2,304 samples; rows of 2,000: 92.7%
  // of copy against 88.8% on 128 x 20), then 128 x 20 and up.
  const bool ok = call.spec.accum == Accum::native
                      ? run_ladder<12, 1, 6>(call) || run_ladder<20, 4, 12>(call)
                      : run_ladder<12, 1, 1>(call) || run_ladder<20, 1, 12>(call);
  if (!ok)
    throw Error("batched_scan variant 'fused_fitted': " + describe(call.spec) + " is longer than its largest tile");
}
std::size_t ws_fused_fitted(const ScanSpec&) { return 0; }
bool supports_fused_fitted(const ScanSpec& s) { return s.len <= FITTED_MAX_LEN; }

}  // namespace tessera::batched_scan_impl
