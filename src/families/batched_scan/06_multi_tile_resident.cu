// Step 6, resident rows (multi_tile_resident_self, the API's pick for rows
// past the fused tile; multi_tile_resident and multi_tile_streamed, lab rows
// over the same kernel): a long row's tiles are read once. multi_tile reads
// every sample twice (totals, then the scan: three DRAM accesses per sample,
// ~60% of copy at best) because for forward_backward every output needs a sum
// over the row's *end*. Here the tiles of a row stay in shared memory until
// the whole row has been read: 5 tile buffers of 42 KB per SM (~28 MB on the
// H100) hold rows of up to SMs x 2.5 tiles (3.5 million samples on the H100)
// with room to spare, so each sample is read once and written once, like the
// fused rung's.
//
// One persistent block per SM, warp-specialised, the buffers handed between
// roles with mbarriers (tessera/blocks/mbarrier.cuh):
//   - producer warp: when a buffer is free, claims the next tile of the
//     batch (one global counter: rows in order, tiles in order) and copies
//     it in with one bulk copy (TMA) of its 16-byte-aligned body, the <= 3 +
//     3 head and tail samples by other lanes;
//   - 4 aggregator warps: as soon as a tile lands, its sample total X and
//     tile-local forward-value total Q (sum of (n - i) x_i: the weights of
//     the forward values' sum) go to global memory and the row's counter is
//     incremented; the tile that completes a row hands the row on;
//   - finisher warp: computes the carries of every tile of such a row
//     (row_carries.cuh, as multi_tile's carries kernel; streamed rows: of
//     a chunk, below) and marks the row ready (its own warp: in the
//     aggregator's path the few microseconds this takes held up the
//     block's next totals, and so the next row: rows of 10^6 samples then
//     completed one per ~6 us, 43% of copy);
//   - carry warp: in buffer order, waits until the tile's row is ready and
//     hands its two carries to the consumers;
//   - 12 consumer warps (the 384 x 28 tile of step 5): scan the tile with
//     those carries (scan_tile, named barriers), stage the outputs in the
//     tile's buffer and store them (st.global.cs).
// A buffer is refilled once every role is done with it. No deadlock: a
// tile's totals depend only on its own copy, and every tile holding a
// buffer waits only for its row's tiles; rows are claimed in order, so when
// all S buffers are held by waiting tiles they all belong to the row being
// claimed, which then has >= S tiles claimed. The rung takes rows of at most
// S / 2 tiles (a margin for SMs shared with other work; cuda_rungs.hpp) and
// streams longer ones (below); below sm_90 it runs the three-launch rungs.
// In place is safe: a row's outputs are stored only after all its tiles are
// in shared memory.
//
// Same tiles and carries code as multi_tile; Q is a weighted sum here
// (rounded differently), and Kahan and double-float run lazily (below).
// Deterministic: the association depends on the shape only.
//
// Expected (H100, forward_backward): rows of 10^5 and 10^6 samples at 80-90%
// of copy (multi_tile 61-63%). Measured
// (docs/results/batched_scan-resident-h100-2026-11-23-*): float 83.7 / 74.9%,
// double 78.7 / 74.9%, Kahan 54 / 58%, double-float 50 / 56% (the consumers'
// 384 x 28 scan is the limit for the last two); rows of 10^7 are streamed
// (below). multi_tile_resident_self (SELF_CARRIES, no finisher): float 88.8 /
// 85.5%, double 81.1% at 10^6. With lazy Kahan and double-float sums
// (run_resident): Kahan 56.8 / 60.0%, double-float 57.4 / 62.0% (_self 54.6 /
// 66.0% and 53.7 / 60.4%). _self with one_tile_carries, the wide sums'
// exclusive copies and no streamed paths
// (docs/results/batched_scan-one-tile-carries-h100-2026-11-24.txt): float
// 88.8 / 84.6%, double 84.7 / 83.0%, Kahan 79.4 / 81.2%, double-float 77.4 /
// 81.2%.
//
// Streamed rows (variant multi_tile_streamed, any row length; the resident
// rungs' path for rows past their capacity): each tile is claimed twice, in
// stream_order.hpp's order: a count (aggregators only: its totals; the
// consumers and the carry warp pass it by) and, after every count of its row,
// a scan (a second bulk copy, counts copied evict-last in the hope that it
// finds them in L2, scans evict-first). The carries come in two levels
// (row_carries.cuh): the count that completes a chunk of 32 tiles hands the
// chunk to the finisher, which gives its tiles their carries within the
// chunk; the row's last chunk then gives the row's chunks theirs, and each
// scan's carry warp adds its chunk's carries to its tile's. Rows of any
// length in one launch, each sample read at most twice. Measured on the H100,
// 10 x 10^7 samples
// (docs/results/batched_scan-two-level-h100-2026-11-24.txt): float 65.1%,
// double 64.0%, Kahan 60.3%, double-float 58.2% of copy (the three-launch
// rungs 61.5 / 46.8 / 42.3 / 40.7%; one finisher warp computing the carries
// of all 931 tiles of a row took 13-65 us while the row's scans waited: 55.9
// / 42.9 / 29.7 / 29.4%). ncu: ~5% of the second copies still found their
// tile in L2, so the DRAM carries ~2.95 accesses per sample, at ~83% of its
// peak.
//
// Chained rows (the resident rungs' path for forward or backward alone past
// their capacity): a tile's only carry is the sum of the tiles before it in
// the scan's direction, so each tile is claimed once (rows in order, each
// from its start or, backward, its end), counted and scanned from one copy:
// the aggregators publish its X with a flag, the finisher of the block whose
// tile completes a chunk of 32 publishes the chunk's total, and the carry
// warp sums the totals of the chunks before the previous one and the X of the
// tiles since (row_carries.cuh, chained_tile_carry; deterministic). H100, 10
// x 10^7 floats forward: 78.2% of copy (streamed 65.4%, CUB's
// InclusiveSumByKey 56.5%;
// docs/results/batched_scan-chained-h100-2026-11-24.txt).
#include "families/batched_scan/ops.hpp"
#include "families/batched_scan/stream_order.hpp"
#include "families/batched_scan/lazy_sums.cuh"
#include "families/batched_scan/row_carries.cuh"
#include "families/batched_scan/scan_chains.cuh"
#include "families/batched_scan/tile_kernel.cuh"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/mbarrier.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/warp_reduce.cuh"

namespace tessera::batched_scan_impl {

namespace {

using gpu_detail::TILE_BLOCK;
using gpu_detail::TILE_ITEMS;

constexpr int BUFFERS = RESIDENT_BUFFERS;  // 5 x 42 KB: what one block per SM can hold
constexpr int BUF_FLOATS = static_cast<int>(TilePolicy::TILE) + 4;  // + 4: the output staging shift
constexpr int CONSUMER_WARPS = TILE_BLOCK / 32;
constexpr int PRODUCER = CONSUMER_WARPS, CARRY = CONSUMER_WARPS + 1, FINISHER = CONSUMER_WARPS + 2,
              FIRST_AGGREGATOR = CONSUMER_WARPS + 3;
constexpr unsigned long long NO_ROW = ~0ull - 1, END = ~0ull;  // finisher jobs besides a row index
// What a claimed buffer holds: a tile to count and scan (resident rows), or,
// for streamed rows (stream_order.hpp), a tile to count or a
// tile to scan; or the end of the work.
enum TileWork : unsigned char { FUSED, COUNT, SCAN, DONE };
constexpr std::size_t DYNAMIC_SMEM = static_cast<std::size_t>(BUFFERS) * BUF_FLOATS * sizeof(float);

// Aggregator warps: 4 (one float warp took longer than a tile's DRAM time:
// rows of 10^6 samples at 56% of copy with float against 72% with double,
// which had 4).
constexpr int AGG_THREADS = 128;
constexpr int AGGREGATORS = AGG_THREADS / 32;
constexpr int BLOCK_THREADS = 32 * (FIRST_AGGREGATOR + AGGREGATORS);
// A buffer is free again once every thread of every role is done with its
// tile: each arrives for itself (a warp's lane 0 arriving for the warp after
// __syncwarp was flagged, now and then, by racecheck).
constexpr unsigned EMPTY_ARRIVALS = 32 * (CONSUMER_WARPS + AGGREGATORS + 2);  // + the carry and finisher warps

using ConsumerBarrier = gpu::NamedBarrier<1, TILE_BLOCK>;
// The consumers scan Kahan and double-float tiles (lazy sums, 8-byte states)
// as two interleaved chains of 14 per thread (scan_chains.cuh): one chain
// of 28 dependent sums per pass was their limit (the fused rungs gained
// 10-20% from chains); float and double keep scan_tile (their outputs as
// measured).
template <class R>
constexpr bool WIDE_CHAINS = !std::is_same_v<typename R::acc_t, float> && !std::is_same_v<typename R::acc_t, double>;

using gpu::lookback_detail::load_acquire_u32;

// An aggregator thread's share of a tile's totals: the slots [c0, c1) of
// the buffer, AGG_CHUNK 16-byte vectors (conflict-free: 84 floats apart,
// 84 = 4 mod 8), of which [lo, hi) hold the tile's samples. X = their sum;
// Q = their share of the tile's forward-value total, sum of (hi - e) x_e
// (inclusive; hi - e - 1 exclusive): the running sum of the chunk's local
// prefixes (one more add per sample), plus the chunk's sum times the
// samples of the tile after the chunk.
constexpr int AGG_CHUNK = static_cast<int>(TilePolicy::TILE) / (4 * AGG_THREADS);
static_assert(AGG_CHUNK * 4 * AGG_THREADS == static_cast<int>(TilePolicy::TILE), "the aggregators cover the tile");
static_assert((4 * AGG_CHUNK) % 8 == 4, "conflict-free 16-byte reads");

// The aggregators sum Kahan and double-float totals in double and round
// them to the float pair once (sm_90's FP64 adds: one instruction where a
// two-sum takes six; 53 bits where the pair keeps ~48). ncu, H100, 100 x
// 10^6 double-float samples: 82 instructions per sample (57 of them FP32)
// against 30 for float, the issue 58% busy, the DRAM 53% (run 18 of
// docs/results/batched_scan-two-level-h100-2026-11-24.txt).
template <class R>
using AggregateArith = std::conditional_t<std::is_same_v<typename R::acc_t, KahanState> ||
                                              std::is_same_v<typename R::acc_t, DFloatState>,
                                          PlainSum<float, double>, R>;
__device__ __forceinline__ void state_of(double d, DFloatState& a) {
  a.hi = static_cast<float>(d);
  a.lo = static_cast<float>(d - static_cast<double>(a.hi));
}
__device__ __forceinline__ void state_of(double d, KahanState& a) {  // value s - c
  a.s = static_cast<float>(d);
  a.c = static_cast<float>(static_cast<double>(a.s) - d);
}
template <class acc_t, class sum_t>
__device__ __forceinline__ acc_t to_state(sum_t v) {
  if constexpr (std::is_same_v<acc_t, sum_t>) {
    return v;
  } else {
    acc_t a;
    state_of(v, a);
    return a;
  }
}

template <class R>
__device__ __forceinline__ void aggregate_chunk(const float* buf, unsigned t, int lo, int hi, bool exclusive,
                                                bool want_q, typename R::acc_t& X, typename R::acc_t& Q) {
  using A = AggregateArith<R>;
  using sum_t = typename A::acc_t;
  const int c0 = static_cast<int>(t) * 4 * AGG_CHUNK, c1 = c0 + 4 * AGG_CHUNK;
  const float4* v4 = reinterpret_cast<const float4*>(buf + c0);
  sum_t r = A::identity(), q = A::identity();
  if (c0 >= lo && c1 <= hi) {  // every slot a sample: no tests
#pragma unroll 3
    for (int m = 0; m < AGG_CHUNK; ++m) {
      const float4 v = v4[m];
      const float x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (exclusive) q = A::combine(q, r);
        A::add(r, x[j]);
        if (!exclusive) q = A::combine(q, r);
      }
    }
  } else if (c1 > lo && c0 < hi) {
    for (int m = 0; m < AGG_CHUNK; ++m) {
      const float4 v = v4[m];
      const float x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int e = c0 + 4 * m + j;
        if (e >= lo && e < hi) {
          if (exclusive) q = A::combine(q, r);
          A::add(r, x[j]);
          if (!exclusive) q = A::combine(q, r);
        }
      }
    }
  }
  X = to_state<typename R::acc_t>(r);
  Q = R::identity();
  if (want_q) {
    const int after = hi - (c1 < hi ? c1 : hi);  // samples of the tile after the chunk (>= 0 when it has any)
    Q = to_state<typename R::acc_t>(after > 0 ? A::combine(q, scan_ops::scale(r, static_cast<std::uint32_t>(after)))
                                              : q);
  }
}

// SELF_CARRIES (multi_tile_resident_self): no finisher; each tile's carry
// warp computes the tile's carries itself from the row's totals once they
// are all published (row_carries.cuh's one_tile_carries: two masked warp
// reductions, not the finisher's scans; another association),
// a shorter chain from a row's last totals to its consumers than finisher
// -> global carries -> ready flag -> carry loads.
template <class R, bool SELF_CARRIES>
__global__ __launch_bounds__(BLOCK_THREADS, 1) void batched_scan_resident_kernel(
    const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, std::size_t rows, std::size_t len,
    std::size_t T, ScanDirection dir, bool exclusive, typename R::acc_t* stats, typename R::acc_t* carries,
    unsigned* row_state, unsigned* tile_counter, StreamOrder order, bool streamed_rows, typename R::acc_t* chunk_stats,
    typename R::acc_t* chunk_carries, unsigned* chunk_state, bool chained_rows, unsigned* tile_flag) {
#if TESSERA_MBARRIER
  using acc_t = typename R::acc_t;
  extern __shared__ __align__(128) float s_buffers[];  // BUFFERS x BUF_FLOATS
  __shared__ std::uint64_t full[BUFFERS], empty[BUFFERS], carry_ready[BUFFERS], finish_ready[BUFFERS];
  // The row (resident rows) or chunk (streamed rows: row * chunks + c) tile
  // s_tile[b] completed, NO_ROW, or END.
  __shared__ unsigned long long s_finish[BUFFERS];
  __shared__ unsigned s_tile[BUFFERS];  // the batch's tile: row * T + its index in the row
  __shared__ TileWork s_work[BUFFERS];
  __shared__ acc_t s_carry[BUFFERS][2];
  __shared__ acc_t s_partial[BUFFERS][AGGREGATORS][2];
  __shared__ acc_t scratch[CONSUMER_WARPS], scratch2[CONSUMER_WARPS];

  if (threadIdx.x == 0) {
    for (int b = 0; b < BUFFERS; ++b) {
      gpu::mbar_init(&full[b], 32);  // the producer warp's lanes (lane 0 with the bulk bytes)
      gpu::mbar_init(&empty[b], EMPTY_ARRIVALS);
      gpu::mbar_init(&carry_ready[b], 1);
      gpu::mbar_init(&finish_ready[b], 1);
    }
    gpu::mbar_init_fence();
  }
  __syncthreads();  // the only block-wide barrier

  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // SELF_CARRIES kernels never stream (the host checks): their copies of
  // the streamed paths are left out (fewer registers for the consumers).
  const bool streamed = !SELF_CARRIES && streamed_rows;
  // Chained rows: forward or backward alone past the capacity, each tile
  // counted and scanned from one copy with chained_tile_carry's carries.
  const bool chained = streamed && chained_rows;
  const bool backward = dir == ScanDirection::backward;
  const std::size_t total = rows * T;  // tiles of the batch
  const std::size_t chunks = gpu_detail::chunks_of(T);  // of a row (streamed rows' carries)
  auto buffer = [&](unsigned b) { return s_buffers + static_cast<std::size_t>(b) * BUF_FLOATS; };
  // Tile u: its row, its span in that row, the row's first sample.
  auto span_of = [&](unsigned u, std::size_t& row, const float*& x_row) {
    row = u / T;
    x_row = in + row * in_pitch;
    return gpu_detail::tile_span(x_row, static_cast<long long>(u - row * T), static_cast<long long>(len));
  };

  if (warp == PRODUCER) {
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % BUFFERS;
      if (i >= BUFFERS) gpu::mbar_wait(&empty[b], (i / BUFFERS - 1) & 1u);
      unsigned u;
      TileWork work;
      for (;;) {
        unsigned q = 0;
        if (lane == 0) q = atomicAdd(tile_counter, 1u);
        q = __shfl_sync(0xffffffffu, q, 0);
        if (!streamed) {
          u = q;
          work = q < total ? FUSED : DONE;
          break;
        }
        if (chained) {  // rows in order, each from its start (forward) or its end (backward)
          const unsigned r = q / static_cast<unsigned>(T), pos = q - r * static_cast<unsigned>(T);
          u = r * static_cast<unsigned>(T) + (backward ? static_cast<unsigned>(T) - 1 - pos : pos);
          work = q < total ? FUSED : DONE;
          break;
        }
        const StreamItem it = order.at(q);
        if (it.kind == StreamItem::skip) continue;  // a count of a row past the batch
        u = it.row * static_cast<unsigned>(T) + it.tile;
        work = it.kind == StreamItem::count ? COUNT : it.kind == StreamItem::scan ? SCAN : DONE;
        break;
      }
      if (lane == 0) {
        s_tile[b] = u;
        s_work[b] = work;  // DONE: the end, for every role
      }
      if (work != DONE) {
        std::size_t row;
        const float* x_row;
        const gpu_detail::TileSpan s = span_of(u, row, x_row);
        const gpu_detail::Split sp = gpu_detail::split_aligned(x_row, s.lo, s.hi);
        float* buf = buffer(b);
        if (lane == 0) {
          const unsigned bytes = static_cast<unsigned>(sp.body_end - sp.head_end) * sizeof(float);
          gpu::mbar_arrive_expect_tx(&full[b], bytes);
          if (bytes > 0) {
            // Streamed rows: a counted tile should stay in L2 until it is
            // scanned; a scanned one is not read again.
            if (work != FUSED)
              gpu::bulk_copy_to_shared_hinted(buf + (sp.head_end - s.e0), x_row + sp.head_end, bytes, &full[b],
                                              work == COUNT ? gpu::l2_evict_last() : gpu::l2_evict_first());
            else
              gpu::bulk_copy_to_shared(buf + (sp.head_end - s.e0), x_row + sp.head_end, bytes, &full[b]);
          }
        } else {
          // Lanes 1-3: head samples, 4-6: tail samples; each arrival
          // releases its lane's shared store.
          const long long h = static_cast<long long>(lane) - 1, t = static_cast<long long>(lane) - 4;
          if (lane < 4 && sp.lo + h < sp.head_end) buf[sp.lo + h - s.e0] = x_row[sp.lo + h];
          if (lane >= 4 && lane < 7 && sp.body_end + t < sp.hi) buf[sp.body_end + t - s.e0] = x_row[sp.body_end + t];
          gpu::mbar_arrive(&full[b]);
        }
      } else {
        gpu::mbar_arrive(&full[b]);
        break;
      }
    }
    return;
  }

  if (warp >= FIRST_AGGREGATOR) {
    const unsigned a = warp - FIRST_AGGREGATOR;
    const bool want_q = dir == ScanDirection::forward_backward;
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % BUFFERS;
      gpu::mbar_wait(&full[b], (i / BUFFERS) & 1u);
      const unsigned u = s_tile[b];
      const TileWork work = s_work[b];
      if (work == DONE || work == SCAN) {  // nothing to count
        if (work == SCAN) gpu::mbar_arrive(&empty[b]);
        if (a == 0 && lane == 0) {
          s_finish[b] = work == DONE ? END : NO_ROW;
          gpu::mbar_arrive(&finish_ready[b]);
        }
        if (work == DONE) break;
        continue;
      }
      std::size_t row;
      const float* x_row;
      const gpu_detail::TileSpan s = span_of(u, row, x_row);
      const int lo = static_cast<int>(s.lo - s.e0), hi = static_cast<int>(s.hi - s.e0);
      acc_t X, Q;
      aggregate_chunk<R>(buffer(b), a * 32 + lane, lo, hi, exclusive, want_q, X, Q);
      gpu::mbar_arrive(&empty[b]);  // done with the buffer (and s_tile[b])
      X = gpu::warp_reduce_xor<R>(X);
      if (want_q) Q = gpu::warp_reduce_xor<R>(Q);
      if constexpr (AGGREGATORS > 1) {
        if (lane == 0) {
          s_partial[b][a][0] = X;
          s_partial[b][a][1] = Q;
        }
        asm volatile("bar.sync 2, %0;\n" ::"n"(32 * AGGREGATORS) : "memory");
        if (a != 0) continue;
        X = s_partial[b][0][0];
        Q = s_partial[b][0][1];
#pragma unroll
        for (int k = 1; k < AGGREGATORS; ++k) {
          X = R::combine(X, s_partial[b][k][0]);
          Q = R::combine(Q, s_partial[b][k][1]);
        }
      }
      // Publish; the tile that completes its row hands the row to the
      // finisher warp (the carries take a few microseconds: here they would
      // hold up this block's next tiles' totals, and with them the next
      // row's).
      if (lane == 0) {
        stats[2 * static_cast<std::size_t>(u)] = X;
        stats[2 * static_cast<std::size_t>(u) + 1] = Q;
        __threadfence();
        if (streamed) {  // counted per chunk (chained rows: of positions, from the row's end backward)
          if (chained) gpu::lookback_detail::store_release_u32(tile_flag + u, 1u);  // for later tiles' carries
          const std::size_t c = gpu_detail::chained_position(u - row * T, T, chained && backward) /
                                gpu_detail::CHUNK_TILES,
                            g = row * chunks + c;
          const unsigned before = atomicAdd(chunk_state + g, 1u);
          s_finish[b] = before + 1 == gpu_detail::chunk_tiles(T, c) ? static_cast<unsigned long long>(g) : NO_ROW;
        } else {
          const unsigned before = atomicAdd(row_state + row, 1u);
          s_finish[b] = !SELF_CARRIES && before + 1 == T ? static_cast<unsigned long long>(row) : NO_ROW;
        }
        gpu::mbar_arrive(&finish_ready[b]);
      }
    }
    return;
  }

  if (warp == FINISHER) {
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % BUFFERS;
      gpu::mbar_wait(&finish_ready[b], (i / BUFFERS) & 1u);
      const unsigned long long job = s_finish[b];
      if (job == END) break;
      if (job != NO_ROW && chained) {
        const std::size_t g = job, row = g / chunks;
        __threadfence();  // the chunk's totals, counted by its atomics, before the loads
        gpu_detail::chained_chunk_total<R>(row, g - row * chunks, T, backward, stats, chunk_carries, chunk_state);
      } else if (job != NO_ROW && streamed) {
        // Chunk g's local carries and totals; the row's last chunk to
        // finish then gives every chunk of the row its carries.
        const std::size_t g = job, row = g / chunks, c = g - row * chunks;
        const float* x_row = in + row * in_pitch;
        __threadfence();  // the chunk's totals, counted by its atomics, before the loads
        gpu_detail::chunk_carries<R>(row, c, x_row, len, T, dir, stats, carries, chunk_stats);
        __threadfence();
        __syncwarp();
        unsigned before = 0;
        if (lane == 0) before = atomicAdd(row_state + row, 1u);
        if (__shfl_sync(0xffffffffu, before, 0) + 1 == chunks) {
          __threadfence();  // every chunk's totals before the loads
          gpu_detail::row_chunk_carries<R>(row, x_row, len, T, dir, chunk_stats, chunk_carries);
          __threadfence();
          __syncwarp();
          if (lane == 0) atomicAdd(row_state + row, 1u);  // chunks + 1: ready
        }
      } else if (!SELF_CARRIES && job != NO_ROW) {
        __threadfence();  // the row's totals, counted by its atomics, before the loads
        gpu_detail::row_carries<R>(static_cast<std::size_t>(job), in, in_pitch, len, T, dir, stats, carries,
                                   gpu_detail::L2Load{});
        __threadfence();
        __syncwarp();
        if (lane == 0) atomicAdd(row_state + job, 1u);  // T + 1: ready
      }
      gpu::mbar_arrive(&empty[b]);  // done with s_finish[b]
    }
    return;
  }

  if (warp == CARRY) {
    for (unsigned i = 0;; ++i) {
      const unsigned b = i % BUFFERS;
      gpu::mbar_wait(&full[b], (i / BUFFERS) & 1u);
      const unsigned u = s_tile[b];
      const TileWork work = s_work[b];
      if (work == DONE) break;
      const std::size_t row = u / T;
      if (work == COUNT) {  // nothing to scan; the arrival keeps carry_ready[b]'s phases one per use
        if (lane == 0) gpu::mbar_arrive(&carry_ready[b]);
      } else if constexpr (SELF_CARRIES) {
        // Every tile of the row counted (each lane acquires for itself).
        if (lane == 0)
          while (load_acquire_u32(row_state + row) < T) __nanosleep(32);
        __syncwarp();
        (void)load_acquire_u32(row_state + row);
        acc_t fwd, bwd;
        gpu_detail::one_tile_carries<R>(u - row * T, T, dir, stats + 2 * row * T, in + row * in_pitch, len,
                                        gpu_detail::L2Load{}, fwd, bwd);
        if (lane == 0) {
          s_carry[b][0] = fwd;
          s_carry[b][1] = bwd;
          gpu::mbar_arrive(&carry_ready[b]);
        }
      } else if (chained) {
        // The tile's own aggregators first: done reading the buffer (the
        // consumers stage their outputs in it) and its X published.
        gpu::mbar_wait(&finish_ready[b], (i / BUFFERS) & 1u);
        const acc_t c = gpu_detail::chained_tile_carry<R>(row, u - row * T, T, backward, stats, tile_flag,
                                                         chunk_carries, chunk_state);
        if (lane == 0) {
          s_carry[b][0] = backward ? R::identity() : c;
          s_carry[b][1] = backward ? c : R::identity();
          gpu::mbar_arrive(&carry_ready[b]);
        }
      } else if (streamed) {
        if (lane == 0) {
          while (load_acquire_u32(row_state + row) <= chunks) __nanosleep(64);
          acc_t fwd, bwd;
          gpu_detail::tile_carries_from_chunks<R>(row, u - row * T, in + row * in_pitch, len, T, dir, carries,
                                                  chunk_carries, fwd, bwd);
          s_carry[b][0] = fwd;
          s_carry[b][1] = bwd;
          gpu::mbar_arrive(&carry_ready[b]);
        }
      } else if (lane == 0) {
        while (load_acquire_u32(row_state + row) <= T) __nanosleep(64);
        s_carry[b][0] = gpu_detail::load_cg(carries + 2 * static_cast<std::size_t>(u));
        s_carry[b][1] = gpu_detail::load_cg(carries + 2 * static_cast<std::size_t>(u) + 1);
        gpu::mbar_arrive(&carry_ready[b]);
      }
      gpu::mbar_arrive(&empty[b]);  // done with s_tile[b]
    }
    return;
  }

  // ---- consumers ------------------------------------------------------------
  for (unsigned i = 0;; ++i) {
    const unsigned b = i % BUFFERS, parity = (i / BUFFERS) & 1u;
    gpu::mbar_wait(&full[b], parity);
    const unsigned u = s_tile[b];
    const TileWork work = s_work[b];
    if (work == DONE) break;
    if (work == COUNT) {
      // Counted only: the buffer is free once its carry_ready phase (which
      // the carry warp completes at once) is waited for, so that no phase of
      // that barrier goes unwaited (synccheck flagged the arrivals after one).
      gpu::mbar_wait(&carry_ready[b], parity);
      gpu::mbar_arrive(&empty[b]);
      continue;
    }
    std::size_t row;
    const float* x_row;
    const gpu_detail::TileSpan s = span_of(u, row, x_row);
    float* y_row = out + row * out_pitch;
    float* buf = buffer(b);
    float x[TILE_ITEMS];
    gpu_detail::read_items<TILE_ITEMS>(buf, x);
    const long long first = s.e0 + static_cast<long long>(threadIdx.x) * TILE_ITEMS;
    const int jlo = gpu_detail::clamp_items(s.lo - first, TILE_ITEMS);
    const int jhi = gpu_detail::clamp_items(s.hi - first, TILE_ITEMS);
    gpu::mbar_wait(&carry_ready[b], parity);
    const acc_t fwd = s_carry[b][0], bwd = s_carry[b][1];
    float y[TILE_ITEMS];
    auto fwd_carry = [fwd](acc_t) { return fwd; };
    auto bwd_carry = [bwd](acc_t) { return bwd; };
    if constexpr (WIDE_CHAINS<R>) {
      // One copy per exclusive flag: no per-item select of the state. H100,
      // multi_tile_resident_self, % of copy at 10^6 / 10^5 samples:
      // double-float 74.8 -> 79.8 / 70.2 -> 74.7; Kahan 79.9 -> 80.7 / 75.2
      // -> 78.7, streamed 10^7 59.8 -> 61.6 (Kahan lost 77.2 -> 71.5 at 10^6
      // while the SELF_CARRIES kernels still held the streamed paths and
      // spilled); docs/results/batched_scan-one-tile-carries-h100-2026-11-24.txt.
      auto scan = [&](auto excl) {
        gpu_detail::scan_tile_chains<R, TILE_ITEMS, 2, TILE_BLOCK, ConsumerBarrier>(
            x, y, jlo, jhi, dir, decltype(excl)::value, scratch, fwd_carry, bwd_carry, scratch2);
      };
      if (exclusive) scan(std::true_type{});
      else scan(std::false_type{});
    } else
      gpu_detail::scan_tile<R, TILE_ITEMS, TILE_BLOCK, true, ConsumerBarrier>(x, y, jlo, jhi, dir, exclusive, scratch,
                                                                             fwd_carry, bwd_carry, scratch2);
    // Every consumer read its items before scan_tile's first barrier: the
    // buffer takes the staged outputs.
    const int c = gpu_detail::output_shift(y_row, s.e0);
    gpu_detail::write_items<TILE_ITEMS>(buf, y, c);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // before the next bulk copy overwrites them
    ConsumerBarrier{}();
    gpu_detail::tile_store<TILE_BLOCK, true>(buf, y_row, s.e0, c, s.lo, s.hi);
    gpu::mbar_arrive(&empty[b]);
  }
#else
  (void)in, (void)in_pitch, (void)out, (void)out_pitch, (void)rows, (void)len, (void)T, (void)dir, (void)exclusive,
      (void)stats, (void)carries, (void)row_state, (void)tile_counter, (void)order, (void)streamed_rows,
      (void)chunk_stats, (void)chunk_carries, (void)chunk_state, (void)chained_rows, (void)tile_flag;
  __trap();  // sm_90+ only: the host never launches it elsewhere
#endif
}

// Workspace: [ tile counter | row states | streamed rows: chunk states
// (256-byte aligned) ][ multi_tile's 4 states per tile: X, Q, forward carry,
// backward carry ][ streamed rows: 4 per chunk: X, after, forward carry,
// backward carry ].
std::size_t counters_bytes(std::size_t rows, std::size_t chunk_states) {
  return gpu::align_workspace((rows + 1 + chunk_states) * sizeof(unsigned));
}

// Streamed rows: the counts of the next row claimed between a row's last
// count and its first scan, time for its carries. A per-row trace (H100,
// 10 x 10^7 floats) put ~30 us between a row's last count claim and its
// first carries: ~18 us for the copy to land behind the ~28 MB of copies in
// flight, ~11 us for the last chunk's level, ~3 us for the row's. % of copy
// for a lead of 4 / 6 / 8 tiles per SM: float 63.8 / 65.1 / 65.0, double
// 62.8 / 64.0 / 64.0, Kahan 58.7 / 60.3 / 60.3, double-float 57.6 / 58.2 /
// 58.2 (docs/results/batched_scan-two-level-h100-2026-11-24.txt).
constexpr std::size_t STREAM_LEAD_PER_SM = 6;

// Resident rows (each tile counted and scanned from one copy), or streamed
// ones (counted, then scanned from a second copy; SELF_CARRIES false).
// chain: forward or backward rows past the capacity run chained instead
// (each tile read once, its carry from the tiles before it:
// row_carries.cuh's chained_tile_carry); forward_backward rows stream.
template <class R, bool SELF_CARRIES>
bool run_resident_r(const ScanCall& call, bool streamed, bool chain = false) {
  using acc_t = typename R::acc_t;
  static std::atomic<int> occupancy{0};
  const ScanSpec& s = call.spec;
  const std::size_t T = tiles_per_row(s.len);
  if (SELF_CARRIES && streamed) return false;  // streamed rows take the finisher's carries
  auto kernel = batched_scan_resident_kernel<R, SELF_CARRIES>;
  constexpr int threads = BLOCK_THREADS;
  if (!gpu::bulk_kernel_fits(DYNAMIC_SMEM + 2048)) return false;  // buffers + the static barriers and scratch
  const int per_sm = gpu_detail::prepare_kernel(kernel, threads, DYNAMIC_SMEM, occupancy);
  (void)per_sm;  // one block per SM: the buffers fill the shared memory
  const auto grid = static_cast<std::size_t>(gpu::sm_count());
  if (!streamed && T > resident_max_row_tiles(static_cast<int>(grid))) return false;  // the row must fit on chip
  const std::size_t tiles = s.rows * T;
  if (tiles >= (std::size_t{1} << 32)) return false;  // 32-bit tile indices
  const bool chained = streamed && chain && s.direction != ScanDirection::forward_backward;
  StreamOrder order{};
  std::uint64_t claims = tiles;
  if (streamed && !chained) {
    const std::size_t lead = STREAM_LEAD_PER_SM * grid < T ? STREAM_LEAD_PER_SM * grid : T;
    order = {static_cast<std::uint32_t>(s.rows), static_cast<std::uint32_t>(T), static_cast<std::uint32_t>(lead)};
    claims = order.claims();
  }
  if (claims + grid >= (std::uint64_t{1} << 32)) return false;  // 32-bit claims
  const std::size_t row_chunks = streamed ? s.rows * gpu_detail::chunks_of(T) : 0;
  const std::size_t cbytes = counters_bytes(s.rows, row_chunks);
  auto* ws = static_cast<unsigned char*>(call.workspace);
  TESSERA_CUDA(cudaMemsetAsync(ws, 0, cbytes, call.stream));
  auto* counter = reinterpret_cast<unsigned*>(ws);
  unsigned* row_state = counter + 1;
  unsigned* chunk_state = row_state + s.rows;
  auto* stats = reinterpret_cast<acc_t*>(ws + cbytes);
  acc_t* carries = stats + 2 * s.rows * T;
  acc_t* chunk_stats = carries + 2 * s.rows * T;
  acc_t* chunk_carries = chunk_stats + 2 * row_chunks;
  // Chained rows: one flag per tile in the carries' place (unused there).
  auto* tile_flag = reinterpret_cast<unsigned*>(carries);
  if (chained) TESSERA_CUDA(cudaMemsetAsync(tile_flag, 0, tiles * sizeof(unsigned), call.stream));
  const unsigned g = gpu_detail::grid_of(tiles < grid ? tiles : grid, "batched_scan_resident_kernel", s);
  detail::launch("batched_scan_resident_kernel", kernel, dim3(g), dim3(threads), DYNAMIC_SMEM, call.stream,
                 s.rows * s.len, call.in, s.in_pitch, call.out, s.out_pitch, s.rows, s.len, T, s.direction,
                 s.exclusive, stats, carries, row_state, counter, order, streamed, chunk_stats, chunk_carries,
                 chunk_state, chained, tile_flag);
  return true;
}

// The best three-launch rung for the accumulator: below sm_90, or where the
// bulk-copy kernel does not fit.
void run_three_launches(const ScanCall& call) {
  switch (call.spec.accum) {
    case Accum::native: run_multi_tile(call); break;
    case Accum::f64: run_multi_tile_pipelined(call); break;
    default: run_multi_tile_occupancy(call); break;
  }
}

// Resident rows (rows past the GPU's capacity streamed), or every row
// streamed (multi_tile_streamed; SELF_CARRIES false). Below sm_90, or where
// the bulk-copy kernel does not fit: the three-launch rungs.
template <bool SELF_CARRIES>
void run_resident(const ScanCall& call, const char* name, bool streamed) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  bool ran = false;
  // Kahan and double-float run without renormalisation (lazy_sums.cuh): the
  // consumers' scan is issue-bound for them. H100, rows of 10^6 / 10^5
  // samples, % of copy, renormalising -> lazy: Kahan 58.1 -> 60.0 / 53.9 ->
  // 56.8 (_self 55.4 -> 66.0 / 46.5 -> 54.6), double-float 56.3 -> 62.0 /
  // 50.2 -> 57.4 (_self 53.1 -> 60.4 / 42.6 -> 53.7); the same errors.
  gpu_detail::dispatch_accum(name, s.accum, [&]<class R>() {
    using L = typename gpu_detail::LazyOf<R>::type;
    ran = run_resident_r<L, SELF_CARRIES>(call, streamed);
    // Rows past the capacity: streamed (H100, 10 x 10^7 samples, % of
    // copy, the three-launch rung -> streamed: float 61.5 -> 65.1, double
    // 46.8 -> 64.0, Kahan 42.3 -> 60.3, double-float 40.7 -> 58.2).
    // Forward or backward alone: chained (each tile read once).
    if (!ran && !streamed) ran = run_resident_r<L, false>(call, true, true);
  });
  // The best three-launch rung for the accumulator.
  if (!ran) run_three_launches(call);
}

}  // namespace

void run_multi_tile_resident(const ScanCall& call) { run_resident<false>(call, "multi_tile_resident", false); }
void run_multi_tile_resident_self(const ScanCall& call) {
  run_resident<true>(call, "multi_tile_resident_self", false);
}
void run_multi_tile_streamed(const ScanCall& call) { run_resident<false>(call, "multi_tile_streamed", true); }
std::size_t ws_multi_tile_streamed(const ScanSpec& s) {
  if (s.rows == 0 || s.len == 0) return 0;
  const std::size_t row_chunks = s.rows * gpu_detail::chunks_of(tiles_per_row(s.len));
  return counters_bytes(s.rows, row_chunks) + ws_multi_tile(s) + 4 * row_chunks * acc_bytes(s.accum);
}
bool supports_multi_tile_streamed(const ScanSpec&) { return true; }
std::size_t ws_multi_tile_resident_self(const ScanSpec& s) { return ws_multi_tile_resident(s); }
bool supports_multi_tile_resident_self(const ScanSpec&) { return true; }
// The streamed kernel's (rows past the capacity) and the three-launch
// fallbacks' (multi_tile's, at the start) fit.
std::size_t ws_multi_tile_resident(const ScanSpec& s) { return ws_multi_tile_streamed(s); }
bool supports_multi_tile_resident(const ScanSpec&) { return true; }

}  // namespace tessera::batched_scan_impl
