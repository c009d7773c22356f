// Step 6, three launches (multi_tile, multi_tile_occupancy,
// multi_tile_pipelined: lab rows, and multi_tile_resident_self's path below
// sm_90) — the first long-row path: rows longer than one tile (up to 10^7
// samples and beyond) are split into tiles of TilePolicy::TILE samples, and
// every tile of every row is independent work for the grid (a batch of a few
// long rows fills the GPU as well as many short ones). Three launches:
//   1. tile totals: per tile, X = the sum of its samples and, for
//      forward_backward, Q = the sum of its tile-local forward values;
//   2. carries: one warp per row scans its tiles' totals (warp scans of 32
//      tiles at a time): the forward carry P_k (sum of X before tile k) and
//      the backward carry (sum of X after it, or for forward_backward the
//      sum of the forward values after it, each tile contributing
//      n_k * P_k + Q_k: its n_k forward values share the carry P_k);
//   3. the tile kernel of step 5 with those carries.
// All in the accumulator: the forward result is never rounded between the
// passes, and every output is a sum of the samples with non-negative
// multiplicities (the verification tolerance's premise). Deterministic: the
// association depends on the shape only.
//
// Over step 5: rows of any length, and parallelism across the tiles of a row
// rather than across rows only. Reduce-then-scan reads the samples twice
// (1.5x the traffic of one read + one write): a decoupled look-back along
// each row (tessera/blocks/lookback.cuh) would read them once; that is the
// next rung.
//
// Bottleneck: DRAM, 3 accesses per sample instead of 2. Expected: ~60% of
// the copy bandwidth (one read + one write) for 10^5 to 10^7 samples per row
// with every accumulator; the carries launch is negligible (rows x tiles x 16
// bytes).
#include "families/batched_scan/ops.hpp"
#include "families/batched_scan/pipelined_kernel.cuh"
#include "families/batched_scan/row_carries.cuh"

namespace tessera::batched_scan_impl {

namespace {

using gpu_detail::TILE_BLOCK;
using gpu_detail::TILE_ITEMS;

constexpr int CARRY_WARPS = 8;  // rows per block of the carries kernel (256 threads)

// Per tile t: stats[2t] = X (its samples' sum), stats[2t + 1] = Q (its
// tile-local forward values' sum; only with want_q).
template <class R, int MIN_BLOCKS>
__global__ __launch_bounds__(TilePolicy::BLOCK, MIN_BLOCKS) void batched_scan_tile_totals_kernel(
    const float* in, std::size_t in_pitch, std::size_t rows, std::size_t len, std::size_t tiles_per_row,
    bool want_q, bool exclusive, typename R::acc_t* stats) {
  using acc_t = typename R::acc_t;
  using Scan = gpu_detail::BlockScan<R, TILE_BLOCK>;
  __shared__ __align__(16) float buf[TilePolicy::TILE + 4];
  __shared__ acc_t scratch[TILE_BLOCK / 32];
  const std::size_t tiles = rows * tiles_per_row;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t row = t / tiles_per_row;
    const auto k = static_cast<long long>(t - row * tiles_per_row);
    const float* x_row = in + row * in_pitch;
    const gpu_detail::TileSpan s = gpu_detail::tile_span(x_row, k, static_cast<long long>(len));
    float x[TILE_ITEMS];
    int jlo, jhi;
    gpu_detail::load_tile_items(buf, x_row, s, x, jlo, jhi);
    acc_t q;
    const acc_t run = gpu_detail::forward_items_with_sum<R, TILE_ITEMS>(x, jlo, jhi, exclusive, q);
    acc_t X, Q = R::identity();
    const acc_t before = Scan::exclusive(run, scratch, X);
    if (want_q) {
      // The thread's forward values are `before` (+) its local ones.
      const std::uint32_t n = jhi > jlo ? static_cast<std::uint32_t>(jhi - jlo) : 0u;
      const acc_t mine = R::combine(scan_ops::scale(before, n), q);
      __syncthreads();  // scratch read by every thread before it is reused
      (void)Scan::exclusive(mine, scratch, Q);
    }
    if (threadIdx.x == 0) {
      stats[2 * t] = X;
      stats[2 * t + 1] = Q;
    }
  }
}

// One warp per row: carries[2t] = P (forward), carries[2t + 1] = backward
// carry, for the row's T tiles (row_carries.cuh).
template <class R>
__global__ __launch_bounds__(CARRY_WARPS * 32) void batched_scan_tile_carries_kernel(
    const float* in, std::size_t in_pitch, std::size_t rows, std::size_t len, std::size_t T, ScanDirection dir,
    const typename R::acc_t* stats, typename R::acc_t* carries) {
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * CARRY_WARPS + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps leave together
  gpu_detail::row_carries<R>(row, in, in_pitch, len, T, dir, stats, carries, gpu_detail::PlainLoad{});
}

// MIN_BLOCKS: resident blocks per SM asked of ptxas for the totals and tile
// kernels (1 for multi_tile; per accumulator for multi_tile_occupancy).
// PIPELINED: the third launch is the pipelined tile kernel
// (pipelined_kernel.cuh, fused_pipelined's 896 x 12 cut and 3 stages).
template <class R, int MIN_BLOCKS, bool PIPELINED = false>
void run_multi_tile_r(const ScanCall& call) {
  using acc_t = typename R::acc_t;
  static std::atomic<int> occupancy{0};
  const ScanSpec& s = call.spec;
  const std::size_t T = tiles_per_row(s.len);
  const std::size_t tiles = s.rows * T;
  auto* stats = static_cast<acc_t*>(call.workspace);
  acc_t* carries = stats + 2 * tiles;
  auto totals = batched_scan_tile_totals_kernel<R, MIN_BLOCKS>;
  const int per_sm = gpu_detail::prepare_kernel(totals, TILE_BLOCK, 0, occupancy);
  const std::size_t cap = static_cast<std::size_t>(gpu::sm_count()) * static_cast<std::size_t>(per_sm);
  const unsigned grid = gpu_detail::grid_of(tiles < cap ? tiles : cap, "batched_scan_tile_totals_kernel", s);
  detail::launch("batched_scan_tile_totals_kernel", totals, dim3(grid), dim3(TILE_BLOCK), 0, call.stream,
                 s.rows * s.len, call.in, s.in_pitch, s.rows, s.len, T,
                 s.direction == ScanDirection::forward_backward, s.exclusive, stats);
  const unsigned cgrid = gpu_detail::grid_of(detail::div_up(s.rows, CARRY_WARPS), "batched_scan_tile_carries_kernel", s);
  detail::launch("batched_scan_tile_carries_kernel", batched_scan_tile_carries_kernel<R>, dim3(cgrid),
                 dim3(CARRY_WARPS * 32), 0, call.stream, tiles, call.in, s.in_pitch, s.rows, s.len, T, s.direction,
                 static_cast<const acc_t*>(stats), carries);
  if constexpr (PIPELINED)
    gpu_detail::launch_pipelined<R, gpu_detail::WidePolicy, 3, false, true>(call, T, carries,
                                                                           "batched_scan_multi_tile_pipelined_kernel");
  else
    gpu_detail::launch_tile_kernel<R, true, MIN_BLOCKS>(call, T, carries, "batched_scan_multi_tile_kernel");
}

}  // namespace

std::size_t acc_bytes(Accum a) {
  std::size_t bytes = 0;
  (void)dispatch_reducer(Dtype::f32, Op::sum, a, [&]<class R>() { bytes = sizeof(typename R::acc_t); });
  return bytes;
}

void run_multi_tile(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  gpu_detail::dispatch_accum("multi_tile", s.accum, [&]<class R>() { run_multi_tile_r<R, 1>(call); });
}

// Step 6, occupancy row: the same three launches with the fused rung's
// per-accumulator occupancy target (tile_kernel.cuh; the lab's
// fused_occupancy row tried it on the fused rows): float 3, Kahan and
// double-float 2, double 1 resident blocks per SM. ptxas (sm_90): the tile
// kernel drops from 72 / 168 / 168 registers (float / Kahan / double-float)
// to 56 / 80 / 80, no spills; the totals kernel is at 44-52 registers either
// way (shared memory bound). Expected: float ~62% (it is near its 3-access
// ceiling already), Kahan / double-float ~52-56% (from 39-45%), double
// unchanged.
void run_multi_tile_occupancy(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  gpu_detail::dispatch_accum("multi_tile_occupancy", s.accum,
                             [&]<class R>() { run_multi_tile_r<R, gpu_detail::occupancy_blocks<R>()>(call); });
}
std::size_t ws_multi_tile_occupancy(const ScanSpec& s) { return ws_multi_tile(s); }

// Step 6, pipelined row: the same totals and carries, then the tile pass
// through fused_pipelined's kernel (persistent 896-thread blocks, the next
// two tiles in flight while one is scanned, 4 barriers per tile). Over
// multi_tile: the tile pass (one read + one write of the three accesses)
// stops idling DRAM between a tile's load and its store, and the wide
// accumulators lose the one-block-per-SM latency cap. Bottleneck: DRAM, 3
// accesses per sample (ceiling 67% of copy). Expected on rows of 10^5 to
// 10^7: float ~63-65% (from 60%), Kahan / double-float / double ~58-62%
// (from 39-45%).
void run_multi_tile_pipelined(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  gpu_detail::dispatch_accum("multi_tile_pipelined", s.accum,
                             [&]<class R>() { run_multi_tile_r<R, 1, true>(call); });
}
std::size_t ws_multi_tile_pipelined(const ScanSpec& s) { return ws_multi_tile(s); }
bool supports_multi_tile_pipelined(const ScanSpec&) { return true; }
bool supports_multi_tile_occupancy(const ScanSpec&) { return true; }
// 4 states per tile: X, Q, forward carry, backward carry.
std::size_t ws_multi_tile(const ScanSpec& s) {
  if (s.rows == 0 || s.len == 0) return 0;
  return s.rows * tiles_per_row(s.len) * 4 * acc_bytes(s.accum);
}
bool supports_multi_tile(const ScanSpec&) { return true; }

}  // namespace tessera::batched_scan_impl
