// The pipelined tile kernel (step 5's fused_pipelined_bulk,
// fused_pipelined_lazy_bulk and fused_fitted; step 6's multi_tile_pipelined;
// the lab's sweep of policies): persistent blocks scan tiles of rows exactly
// as tile_kernel.cuh does, but keep STAGES tile buffers in dynamic shared
// memory and copy the next STAGES - 1 tiles in while they scan and store the
// current one.
//
// Over fused_one_pass: that rung's block runs load -> scan -> store strictly
// in turn, so with 1-2 resident blocks per SM the SM has no load in flight
// while it scans and drains a row (82% of copy with float, 60-64% with the
// 8-byte accumulators on the H100). Here each block owns STAGES row buffers
// and before scanning row i it issues row i + STAGES - 1 and waits only for
// row i (cp.async.wait_group STAGES - 2), so every SM always has one to two
// rows (40-80 KB) of loads in flight, and its stores (st.global.cs, 16-byte,
// or one bulk copy) drain behind them. Barriers per row: 4 for
// forward_backward (the two block scans use separate scratch arrays, and the
// outputs overwrite the row's buffer right after the scan: every thread read
// its items before the scan's first barrier). With one block per SM every
// barrier idles the whole SM, so they count against the ~3.7 us a row of
// 10,000 floats may take.
#pragma once

#include "families/batched_scan/lazy_sums.cuh"
#include "families/batched_scan/scan_chains.cuh"
#include "families/batched_scan/tile_io_bulk.cuh"
#include "families/batched_scan/tile_io_lean.cuh"
#include "families/batched_scan/tile_kernel.cuh"

namespace tessera::batched_scan_impl::gpu_detail {


// Tuning as data: a policy fixes the tile cut (BLOCK x ITEMS must equal the
// fused tile: tile_span and FUSED_MAX_LEN assume it; ITEMS % 8 == 4 keeps
// the float4 item reads conflict-free; 05_fused_fitted.cu's smaller tiles
// are the exception), the resident blocks per SM asked of ptxas, and how
// the tile is scanned and moved. Each stage is a row buffer of the tile + 4
// floats (+ 4: the output staging shift). The product's policies are below;
// the ones the bench rejected (two blocks of one chain, a masked 896 x 12
// scan, ...) are in lab/batched_scan/tuning_pipelined.cuh with their
// measurements.
// What a policy leaves out by default: one chain form (scan_items.cuh's
// scan_tile), the per-item inclusive/exclusive select, the 64-bit tile I/O.
struct PipelinedDefaults {
  // Independent accumulator chains per thread through scan_chains.cuh's
  // unpredicated loops (0: scan_tile, bitwise the older rungs).
  template <class R>
  static constexpr int chains() { return 0; }
  static constexpr bool FAST = false;        // scan_tile: constant-bound item loops for full threads
  static constexpr bool EXCL_SPLIT = false;  // inclusive and exclusive as two inlined copies (no per-item select)
  static constexpr bool LEAN = false;        // tile_io_lean.cuh's 32-bit loops (rows of one tile)
  static constexpr bool BULK = false;        // tile_io_bulk.cuh (rows of one tile, sm_90+)
  template <class R>
  using arith = R;  // the reducer the kernel runs for accumulator R
};
// - Wide: 896 threads = 28 warps, one block per SM, <= 72 registers per
//   thread (ptxas, sm_90: 40-72, no spills); 12 items leave 24 registers
//   for 12 double-float states. 3 stages = 126 KB of the SM's 227 KB.
//   multi_tile_pipelined's tile pass; with BULK, fused_pipelined_bulk.
struct WidePolicy : PipelinedDefaults {
  static constexpr int BLOCK = 896;
  static constexpr int ITEMS = 12;
  template <class R>
  static constexpr int min_blocks() { return 1; }
  static constexpr bool FAST = true;
};
// - LeanChain<K>: the fused tile (384 x 28) at two blocks per SM, each
//   thread's 28 items as K chains, separate inclusive / exclusive copies
//   (EXCL_SPLIT: no per-item select of a state, 2 SEL per item per pass for
//   the 8-byte states) and LEAN tile traffic: tile_io_lean.cuh's 32-bit,
//   unrolled float4 loops, the span in ints, and no 64-bit division for the
//   row of a tile (rows of one tile). ptxas (sm_90): 80 registers, no
//   spills for every accumulator, double included, for K = 2 and 4.
template <int K>
struct LeanChainPolicy : PipelinedDefaults {
  static constexpr int BLOCK = TilePolicy::BLOCK;
  static constexpr int ITEMS = TilePolicy::ITEMS;
  template <class R>
  static constexpr int min_blocks() { return 2; }
  template <class R>
  static constexpr int chains() { return K; }
  static constexpr bool EXCL_SPLIT = true;
  static constexpr bool LEAN = true;
};
// - LazyChain<K>: LeanChain<K> running the double-float and Kahan sums
//   without their renormalisation (lazy_sums.cuh): of double-float's ~48
//   additions per sample ~13 gone, of Kahan's ~40 ~8; float and double run
//   LeanChain<K>'s code.
template <int K>
struct LazyChainPolicy : LeanChainPolicy<K> {
  template <class R>
  using arith = typename LazyOf<R>::type;
};
// - BulkLazy: LazyChain<K> moving each row's aligned body with one bulk copy
//   each way (tile_io_bulk.cuh) instead of every thread's float4 loop
//   (fused_pipelined_lazy_bulk with K = 2; fused_fitted on smaller tiles).
template <int K>
struct BulkLazyPolicy : LazyChainPolicy<K> {
  static constexpr bool BULK = true;
};
// - WideBulk: Wide (896 x 12, one block per SM, 3 stages) with bulk tile
//   traffic (fused_pipelined_bulk).
struct WideBulkPolicy : WidePolicy {
  static constexpr bool BULK = true;
};
// Floats of one stage buffer of policy P: its tile plus the output staging
// shift (the fused policies: TilePolicy::TILE + 4; the fitted ones of
// 05_fused_fitted.cu, smaller tiles).
template <class P>
constexpr std::size_t slots_of() {
  return static_cast<std::size_t>(P::BLOCK) * P::ITEMS + 4;
}
template <class P>
constexpr bool valid_policy = P::BLOCK * P::ITEMS == static_cast<int>(TilePolicy::TILE) && P::ITEMS % 8 == 4 &&
                              P::BLOCK % 32 == 0 && P::BLOCK * P::template min_blocks<DFloatSum>() <= 2048;
static_assert(valid_policy<WidePolicy> && valid_policy<LeanChainPolicy<2>> && valid_policy<LazyChainPolicy<2>> &&
                  valid_policy<BulkLazyPolicy<2>> && valid_policy<WideBulkPolicy>,
              "the fused tile, conflict-free, fits an SM");
static_assert(TilePolicy::ITEMS % 2 == 0 && TilePolicy::ITEMS % 4 == 0, "LeanChain<2>, LeanChain<4>: whole chains");
static_assert(3 * slots_of<WidePolicy>() * sizeof(float) <= 227 * 1024, "Wide: 3 stages fit one SM's shared memory");

// Issues the asynchronous copy of tile t (row t / T, tile t % T of it) into
// `buf` (all threads) when the tile exists; always commits one group, so
// that the group count per iteration is fixed and cp.async.wait_group's
// constant is right.
// LEAN (rows of one tile, T == 1: tile t is row t, no division):
// tile_io_lean.cuh's load with the span in ints. BULK (rows of one tile
// too): the body as one bulk copy completing on `bar`.
template <int BLOCK, int ITEMS = 0, bool LEAN = false, bool BULK = false>
__device__ __forceinline__ void prefetch_tile(float* buf, const float* in, std::size_t in_pitch, std::size_t t,
                                              std::size_t tiles, std::size_t T, long long len,
                                              [[maybe_unused]] std::uint64_t* bar = nullptr) {
  if (t < tiles) {
    const std::size_t row = LEAN || BULK ? t : t / T;
    const float* x_row = in + row * in_pitch;
    const TileSpan s = tile_span(x_row, LEAN || BULK ? 0 : static_cast<long long>(t - row * T), len);
#if TESSERA_BULK_COPY
    if constexpr (BULK)
      tile_load_bulk(buf, x_row, static_cast<int>(s.e0), static_cast<int>(s.lo), static_cast<int>(s.hi), bar);
    else
#endif
    if constexpr (LEAN)
      tile_load_async_lean<BLOCK, ITEMS>(buf, x_row, static_cast<int>(s.e0), static_cast<int>(s.lo),
                                         static_cast<int>(s.hi));
    else
      tile_load_async<BLOCK>(buf, x_row, s.e0, s.lo, s.hi);
  }
  __pipeline_commit();
}

// A thread's items straight from registers to the output row, for rows whose
// output alignment matches the tile's (output_shift == 0: in place, or equal
// pitches mod 4): whole threads store N / 4 float4s, the at most two partial
// threads of a row (its head and tail) store their valid samples one by one.
// No staging through shared memory, no barrier.
template <int N>
__device__ __forceinline__ void store_items_direct(float* y_row, long long first_item, int jlo, int jhi,
                                                   const float (&y)[N]) {
  static_assert(N % 4 == 0, "whole float4s per thread");
  if (jlo == 0 && jhi == N) {
    float4* p = reinterpret_cast<float4*>(y_row + first_item);  // 16-byte aligned: output_shift == 0
#pragma unroll
    for (int m = 0; m < N / 4; ++m) p[m] = make_float4(y[4 * m], y[4 * m + 1], y[4 * m + 2], y[4 * m + 3]);
  } else {
#pragma unroll
    for (int j = 0; j < N; ++j)
      if (j >= jlo && j < jhi) y_row[first_item + j] = y[j];
  }
}

// Tiles t = blockIdx.x, blockIdx.x + gridDim.x, ... in order (T tiles per
// row: 1 for the fused rows; CARRY: `carries` as in tile_kernel.cuh, the
// long-row path); the i-th tile of this block lives in stage buffer
// i % STAGES. Buffer reuse: tile i + STAGES - 1 is copied into the buffer of
// tile i - 1 only after the barrier that follows cp.async.wait_group at the
// top of iteration i, by which point every thread has finished storing tile
// i - 1 (its stores read the buffer before that barrier). In place is safe:
// a tile's loads are issued by the block that stores it, before it stores
// it; tiles are disjoint. Barriers per row: the
// one above, one per block scan (two scratch arrays: no barrier between the
// scans), and for staged stores one more; the outputs may overwrite the
// row's buffer right after the scan, since every thread read its items
// before the scan's first barrier.
// DIRECT: rows whose output alignment allows it skip the staging
// (store_items_direct); the others are staged as in fused_one_pass.
template <class R, class P, int STAGES, bool DIRECT, bool CARRY>
__global__ __launch_bounds__(P::BLOCK, P::template min_blocks<R>()) void batched_scan_pipelined_kernel(
    const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, std::size_t rows, std::size_t len,
    std::size_t tiles_per_row, ScanDirection dir, bool exclusive, const typename R::acc_t* carries) {
  static_assert(STAGES >= 2, "at least one row in flight while one is scanned");
  static_assert(!((P::LEAN || P::BULK) && CARRY), "LEAN, BULK: rows of one tile (launch_pipelined checks T == 1)");
  constexpr int BLOCK = P::BLOCK, ITEMS = P::ITEMS;
  constexpr bool BULK = P::BULK && TESSERA_BULK_COPY;  // the lean path below sm_90
  using acc_t = typename R::acc_t;
  constexpr std::size_t SLOTS = slots_of<P>();
  static_assert(SLOTS % 4 == 0, "every stage buffer starts 16-byte aligned");
  extern __shared__ __align__(16) float stage_buf[];  // STAGES x SLOTS floats
  __shared__ acc_t scratch[2][BLOCK / 32];            // the forward and the backward block scan
  std::uint64_t* bars = nullptr;                      // BULK: one mbarrier per stage
  [[maybe_unused]] unsigned phase = 0;                // BULK: bit s = parity of stage s's next phase
#if TESSERA_BULK_COPY
  if constexpr (BULK) {
    __shared__ std::uint64_t stage_bars[STAGES];
    bars = stage_bars;
    if (threadIdx.x == 0)
      for (int k = 0; k < STAGES; ++k) bulk_barrier_init(&bars[k]);
    __syncthreads();
  }
#endif
  const long long n = static_cast<long long>(len);
  const std::size_t T = tiles_per_row;
  const std::size_t tiles = rows * T;
  const std::size_t stride = gridDim.x;
  const std::size_t first = blockIdx.x;
#pragma unroll
  for (int k = 0; k < STAGES - 1; ++k)
    prefetch_tile<BLOCK, ITEMS, P::LEAN, BULK>(stage_buf + k * SLOTS, in, in_pitch, first + k * stride, tiles, T, n,
                                               bars + k);
  int stage = 0;
  for (std::size_t t = first; t < tiles; t += stride) {
    __pipeline_wait_prior(STAGES - 2);  // this thread's copies of tile t have landed
#if TESSERA_BULK_COPY
    if constexpr (BULK) {
      bulk_wait(bars + stage, (phase >> stage) & 1u);  // and the bulk body
      phase ^= 1u << stage;
      if (threadIdx.x == 0) bulk_wait_read();  // t - stride's bulk store has read the buffer refilled below
    }
#endif
    __syncthreads();                    // everyone's have; t - stride is fully stored
    const int ahead_stage = (stage + STAGES - 1) % STAGES;
    prefetch_tile<BLOCK, ITEMS, P::LEAN, BULK>(stage_buf + ahead_stage * SLOTS, in, in_pitch,
                                               t + static_cast<std::size_t>(STAGES - 1) * stride, tiles, T, n,
                                               bars + ahead_stage);
    float* buf = stage_buf + stage * SLOTS;
    const std::size_t row = P::LEAN ? t : t / T;
    const float* x_row = in + row * in_pitch;
    float* y_row = out + row * out_pitch;
    const TileSpan s64 = tile_span(x_row, P::LEAN ? 0 : static_cast<long long>(t - row * T), n);
    // LEAN: a one-tile row's span in ints (e0 in [-3, 0], lo, hi in [0, len]):
    // fewer registers live across the scan.
    using span_t = std::conditional_t<P::LEAN, int, long long>;
    const span_t e0 = static_cast<span_t>(s64.e0), lo = static_cast<span_t>(s64.lo), hi = static_cast<span_t>(s64.hi);
    float x[ITEMS];
    read_items<ITEMS>(buf, x);
    const span_t first_item = e0 + static_cast<span_t>(threadIdx.x) * ITEMS;
    const int jlo = clamp_items(lo - first_item, ITEMS);
    const int jhi = clamp_items(hi - first_item, ITEMS);
    float y[ITEMS];
    constexpr int K = P::template chains<R>();
    if constexpr (K > 0 && P::EXCL_SPLIT) {
      if (exclusive)  // a constant in each inlined copy
        scan_tile_chains<R, ITEMS, K, BLOCK>(x, y, jlo, jhi, dir, true, scratch[0], TileCarry<R, CARRY, 0>{carries, t},
                                             TileCarry<R, CARRY, 1>{carries, t}, scratch[1]);
      else
        scan_tile_chains<R, ITEMS, K, BLOCK>(x, y, jlo, jhi, dir, false, scratch[0], TileCarry<R, CARRY, 0>{carries, t},
                                             TileCarry<R, CARRY, 1>{carries, t}, scratch[1]);
    } else if constexpr (K > 0)
      scan_tile_chains<R, ITEMS, K, BLOCK>(x, y, jlo, jhi, dir, exclusive, scratch[0],
                                           TileCarry<R, CARRY, 0>{carries, t}, TileCarry<R, CARRY, 1>{carries, t},
                                           scratch[1]);
    else
      scan_tile<R, ITEMS, BLOCK, P::FAST>(x, y, jlo, jhi, dir, exclusive, scratch[0],
                                          TileCarry<R, CARRY, 0>{carries, t}, TileCarry<R, CARRY, 1>{carries, t},
                                          scratch[1]);
    const int c = output_shift(y_row, e0);
    if (DIRECT && c == 0) {
      store_items_direct<ITEMS>(y_row, first_item, jlo, jhi, y);
    } else {
      write_items<ITEMS>(buf, y, c);  // buf was read before the scan's barriers
#if TESSERA_BULK_COPY
      if constexpr (BULK) fence_to_bulk();
#endif
      __syncthreads();                // staged outputs visible
#if TESSERA_BULK_COPY
      if constexpr (BULK)
        tile_store_bulk(buf, y_row, static_cast<int>(e0), c, static_cast<int>(lo), static_cast<int>(hi));
      else
#endif
      if constexpr (P::LEAN) tile_store_lean<BLOCK, ITEMS>(buf, y_row, e0, c, lo, hi);
      else tile_store<BLOCK, true>(buf, y_row, e0, c, lo, hi);
    }
    stage = stage + 1 == STAGES ? 0 : stage + 1;
  }
#if TESSERA_BULK_COPY
  if constexpr (BULK)
    if (threadIdx.x == 0) bulk_wait_all();  // the shared sources outlive the bulk stores
#endif
  // Every non-empty commit group was waited for: a tile is prefetched only
  // if this block processes it later.
}

// Persistent grid over rows x T tiles: as many blocks per SM as the
// occupancy allows (the policy's min_blocks by design), never more blocks
// than tiles.
template <class R, class P, int STAGES, bool DIRECT, bool CARRY>
void launch_pipelined(const ScanCall& call, std::size_t T, const typename R::acc_t* carries, const char* name) {
  static std::atomic<int> occupancy{0};
  const ScanSpec& s = call.spec;
  if ((P::LEAN || P::BULK) && T != 1)
    throw Error(std::string("batched_scan: ") + name + " takes rows of one tile only");
  auto kernel = batched_scan_pipelined_kernel<R, P, STAGES, DIRECT, CARRY>;
  const std::size_t smem = static_cast<std::size_t>(STAGES) * slots_of<P>() * sizeof(float);
  const int per_sm = prepare_kernel(kernel, P::BLOCK, smem, occupancy);
  const std::size_t tiles = s.rows * T;
  const std::size_t cap = static_cast<std::size_t>(gpu::sm_count()) * static_cast<std::size_t>(per_sm);
  const unsigned grid = grid_of(tiles < cap ? tiles : cap, name, s);
  detail::launch(name, kernel, dim3(grid), dim3(P::BLOCK), smem, call.stream, s.rows * s.len, call.in, s.in_pitch,
                 call.out, s.out_pitch, s.rows, s.len, T, s.direction, s.exclusive, carries);
}

// A fused pipelined rung's run(): every row one tile, no carries, each
// accumulator's kernel instantiated for policy P.
template <class P, int STAGES, bool DIRECT>
void run_fused_pipelined_rung(const ScanCall& call, const char* variant, const char* kernel) {
  if (!has_work(call.spec)) return;
  dispatch_accum(variant, call.spec.accum,
                 [&]<class R>() {
                   launch_pipelined<typename P::template arith<R>, P, STAGES, DIRECT, false>(call, 1, nullptr, kernel);
                 });
}

}  // namespace tessera::batched_scan_impl::gpu_detail

// A fused pipelined rung's three registry functions (cuda_rungs.hpp): run
// with policy P (qualified from tessera::batched_scan_impl:
// gpu_detail::WideBulkPolicy) and STAGES row buffers (DIRECT: register
// stores where aligned), no workspace, and the fused tile's limit exactly as
// fused_one_pass (longer rows: the multi-tile paths). Use inside namespace
// tessera::batched_scan_impl.
#define TESSERA_FUSED_PIPELINED_RUNG(name, P, STAGES, DIRECT)                                              \
  void run_##name(const ScanCall& call) {                                                                  \
    gpu_detail::run_fused_pipelined_rung<P, STAGES, DIRECT>(call, #name, "batched_scan_" #name "_kernel"); \
  }                                                                                                        \
  std::size_t ws_##name(const ScanSpec&) { return 0; }                                                     \
  bool supports_##name(const ScanSpec& s) { return s.len <= FUSED_MAX_LEN; }
