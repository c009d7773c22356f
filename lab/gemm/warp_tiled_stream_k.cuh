// Step 10, stream-K tail (a lab experiment): the warp-tiled kernel
// (10_warp_tiled.cuh) with the last partial wave of tiles shared out by k
// iterations, so that every resident block slot does the same number of k
// slabs. Measured 11% slower than the data-parallel kernel it builds on
// (below), so the product does not use it.
//
// What it changes. A data-parallel grid of T tiles on S resident block slots
// (S = blocks per SM x SMs) runs ceil(T / S) rounds on its busiest slot while
// the mean is T / S: at 4096^3 with 128 x 128 tiles, 1024 tiles on 264 slots
// are 3.88 waves, the last one 232 tiles for 264 slots, and 8192^3 (4096
// tiles) is 15.5 waves. Stream-K (Osama et al., PPoPP 2023; CUTLASS's
// "data-parallel + stream-K waves") takes the last partial wave (or it and
// one full wave, by the model of stream_k_plan) and flattens it into
// (tile, k slab) iterations split evenly over S stream-K blocks, contiguous
// ranges; the other tiles stay data-parallel in the grouped (L2) order. One
// grid: blocks [0, S) are the stream-K blocks (scheduled first, so their
// fixups happen early), blocks S.. the data-parallel tiles.
//
// A stream-K block walks its range tile by tile; a tile it covers whole is
// stored directly, a partial one (its first and last, at most two) goes
// through the fixup:
// - every contributor stores its partial accumulators to its own workspace
//   slot (2 per stream-K block: its first and last tile), __threadfence, then
//   one atomicAdd on the tile's arrival counter;
// - the last to arrive (count == contributors - 1) sums all partials in k
//   order (its own from registers at its place), then applies alpha / beta
//   and stores C with the normal epilogue.
// No block ever waits for another (no co-residency needed, no deadlock), and
// the sum's order is fixed whatever the arrival order: bitwise-identical
// results run after run (not the same bits as the data-parallel kernel's,
// whose single chain adds the same products in another association). The
// counters are zeroed by a cudaMemsetAsync on each call (workspace contents
// are undefined on entry).
//
// Which tiles are shared out (stream_k_plan): the busiest-slot model weighs
// data-parallel against stream-K over the partial wave ("1 SK wave") and
// over it plus one full wave ("2 SK waves"). Both stream-K forms give every
// slot the same FFMA (T * iters / S slabs); they differ in the fixups. With
// 1 SK wave a stream-K block covers rem / S < 1 tile, so a tile has up to
// ceil(S / rem) + 1 contributors (3 at 4096^3); with 2 SK waves a block
// covers more than one tile, a tile has at most 2 contributors and a block
// at most 2 partials (CUTLASS's rule of at least one whole tile per
// stream-K block). So the model picks 2 SK waves wherever stream-K pays at
// all, and data-parallel where the fixups would cost more than the tail
// (few slabs per tile) or where T % S == 0 or T <= S.
//
// Fixup cost per split tile: 2 contributors, each writes its 64 KiB partial
// (128 x 128 floats) and the last arriver reads the other's 64 KiB. At
// 4096^3 (2 SK waves: 496 tiles over 264 blocks of ~481 slabs, ~263 split
// tiles) ~34 MB written and ~17 MB read, mostly in L2 (50 MB), against
// ~2.7 ms of FFMA: ~0.5%, plus a 1-2 us memset of the counters.
//
// Bottleneck: as the data-parallel kernel (FFMA issue); this removes the
// wave quantization. Expected: +3% at 4096^3 (busiest slot 4 x 256 = 1024
// slab-times -> 2 x 256 + 481 = 993) and 8192^3 (16 x 512 = 8192 ->
// 14 x 512 + 776 = 7944); unchanged where the plan is data-parallel (same
// main loop). Same registers as the data-parallel kernel (128, no spills:
// 2 blocks/SM). Measured (H100, docs/results/gemm-h100-2026-11-23d.json):
// 42.5 / 43.3 TFLOP/s at 4096^3 / 8192^3 against 47.9 / 49.3 for the
// data-parallel 128x128x16 serpentine kernel in the same run (-11%).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "tessera/blocks/device.cuh"
#include "families/gemm/10_warp_tiled.cuh"

// The room's device namespace: this is one more form of its kernel.

namespace tessera::gemm_impl::dev {

// The split of one call. sk_ctas == 0: data-parallel only (grid = tiles).
struct StreamKPlan {
  unsigned sk_ctas = 0;   // stream-K blocks: blockIdx.x < sk_ctas
  unsigned sk_tiles = 0;  // tiles [0, sk_tiles) of the grouped order are shared out by k
  unsigned iters = 0;     // k slabs per tile, ceil(k / BK)
  unsigned total = 0;     // sk_tiles * iters (< 2^31)
  unsigned* counters = nullptr;  // sk_tiles arrival counters (workspace)
  float4* partials = nullptr;    // 2 * sk_ctas slots of BM * BN floats (workspace)
};

// The cost of a fixup in slab-times of one block: moving a 64 KiB partial
// (store, or read by the last arriver) at the per-SM share of L2 bandwidth
// takes about one slab's FFMA time (~4-5 k cycles at 2 blocks/SM); counted
// twice for the latency it does not overlap.
inline constexpr double STREAM_K_FIXUP_SLABS = 2.0;
// Fewest slabs per stream-K block: below it the fixups outweigh the balance.
inline constexpr unsigned STREAM_K_MIN_SLABS = 4;

// Busiest-slot model: a slot runs dp_rounds whole tiles plus its stream-K
// range, ceil(total / S) slabs, plus its fixups — two partial stores and the
// reads of the others' partials of a tile (contributors - 1, with
// contributors <= ceil(iters / per_block) + 1). Candidates: data-parallel
// (ceil(T / S) rounds), stream-K over the partial wave (1 SK wave), over it
// and one full wave (2 SK waves: a block covers more than one tile, so a tile
// has at most 2 contributors). Both stream-K forms run the same FFMA per slot
// (T * iters / S); the model prefers the one with fewer reads — 2 SK waves
// (see the header) — and the 1-wave form only on a strict gain.
inline StreamKPlan stream_k_plan(std::size_t tiles, std::size_t iters, std::size_t slots) {
  StreamKPlan plan;
  plan.iters = static_cast<unsigned>(iters);
  if (slots == 0 || tiles <= slots || tiles % slots == 0 || iters < 2) return plan;
  const std::size_t full = tiles / slots, rem = tiles % slots;
  double best = double(full + 1) * double(iters);  // data-parallel
  for (std::size_t waves = 1; waves <= 2 && waves <= full + 1; ++waves) {
    const std::size_t sk_tiles = rem + (waves - 1) * slots;
    const std::size_t total = sk_tiles * iters;
    if (total >= (std::size_t(1) << 31)) continue;
    const std::size_t per_block = total / slots;
    if (per_block < STREAM_K_MIN_SLABS) continue;
    const std::size_t contributors = (iters + per_block - 1) / per_block + 1;
    const double cost = double(full + 1 - waves) * double(iters) + double((total + slots - 1) / slots) +
                        STREAM_K_FIXUP_SLABS * double(2 + contributors - 1);
    if (cost < best) {
      best = cost;
      plan.sk_ctas = static_cast<unsigned>(slots);
      plan.sk_tiles = static_cast<unsigned>(sk_tiles);
      plan.total = static_cast<unsigned>(total);
    }
  }
  return plan;
}

// Workspace layout: the counters, then (256-byte aligned) the partial slots.
template <class P>
struct StreamKWorkspace {
  static constexpr std::size_t SLOT_FLOATS = std::size_t(P::BM) * P::BN;
  static std::size_t counter_bytes(const StreamKPlan& plan) {
    return (std::size_t(plan.sk_tiles) * sizeof(unsigned) + 255) / 256 * 256;
  }
  static std::size_t bytes(const StreamKPlan& plan) {
    if (plan.sk_ctas == 0) return 0;
    return counter_bytes(plan) + 2 * std::size_t(plan.sk_ctas) * SLOT_FLOATS * sizeof(float);
  }
};

// ---- device side -------------------------------------------------------------

// First iteration of stream-K block j (block sk_ctas: the end).
__device__ __forceinline__ unsigned sk_begin(const StreamKPlan& plan, unsigned j) {
  return static_cast<unsigned>(std::uint64_t(j) * plan.total / plan.sk_ctas);
}
// The stream-K block whose range holds iteration x: the largest j with
// sk_begin(j) <= x, i.e. ceil((x + 1) * S / total) - 1.
__device__ __forceinline__ unsigned sk_block_of(const StreamKPlan& plan, unsigned x) {
  return static_cast<unsigned>((std::uint64_t(x + 1) * plan.sk_ctas - 1) / plan.total);
}
// The workspace slot of block j's partial of a tile that starts at iteration
// tile_begin: 2j if the tile is the first of j's range, 2j + 1 if its last
// (a block's middle tiles are whole and need none). Only the tile's first
// contributor can have started before it.
__device__ __forceinline__ float4* sk_slot(const StreamKPlan& plan, unsigned j, unsigned tile_begin,
                                           unsigned threads) {
  const std::size_t slot = 2 * std::size_t(j) + (sk_begin(plan, j) < tile_begin ? 1 : 0);
  return plan.partials + slot * (std::size_t(threads) * 16);
}

// The fixup of a partial tile (see the header). Returns whether this block
// holds the tile's complete sum in acc (the last arriver) and must store it.
// Each thread's partial is 16 float4 at slot[q * THREADS + tid]: coalesced,
// and every block's thread tid holds the same elements of the tile.
template <class P>
__device__ __forceinline__ bool stream_k_fixup(const StreamKPlan& plan, unsigned me, unsigned tile,
                                               float (&acc)[P::TM][P::TN]) {
  static_assert(P::TM * P::TN == 64 && StreamKWorkspace<P>::SLOT_FLOATS == 64 * std::size_t(P::THREADS),
                "a slot holds 16 float4 per thread");
  __shared__ unsigned last_arriver;
  const unsigned tid = threadIdx.x;
  {
    float4* mine = sk_slot(plan, me, tile * plan.iters, P::THREADS) + tid;
#pragma unroll
    for (int i = 0; i < P::TM; ++i)
#pragma unroll
      for (int g = 0; g < P::TN / 4; ++g)
        __stcg(mine + (i * (P::TN / 4) + g) * P::THREADS,
               make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]));
  }
  const unsigned first = sk_block_of(plan, tile * plan.iters);
  const unsigned last = sk_block_of(plan, tile * plan.iters + plan.iters - 1);
  __threadfence();  // this thread's partial is visible device-wide before the arrival is counted
  __syncthreads();  // ... every thread's
  if (tid == 0) {
    const unsigned arrived = atomicAdd(plan.counters + tile, 1u);
    last_arriver = arrived == last - first;
    __threadfence();  // the others' partials are read after their arrivals were seen
  }
  __syncthreads();
  if (!last_arriver) return false;
  // Contributors after the first start inside the tile: their slot is 2j.
  const float4* first_slot = sk_slot(plan, first, tile * plan.iters, P::THREADS) + tid;
  // Sum in k order, contributor by contributor, one float4 group at a time
  // (a few registers beyond acc); this block's own partial from acc.
#pragma unroll
  for (int i = 0; i < P::TM; ++i) {
#pragma unroll
    for (int g = 0; g < P::TN / 4; ++g) {
      const float4 own = make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
      float4 sum = own;
      for (unsigned j = first; j <= last; ++j) {
        const float4* slot = j == first ? first_slot : plan.partials + std::size_t(2 * j) * (P::THREADS * 16) + tid;
        const float4 v = j == me ? own : __ldcg(slot + (i * (P::TN / 4) + g) * P::THREADS);
        if (j == first) sum = v;
        else sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
      acc[i][4 * g] = sum.x, acc[i][4 * g + 1] = sum.y, acc[i][4 * g + 2] = sum.z, acc[i][4 * g + 3] = sum.w;
    }
  }
  return true;
}

// The next piece of work of `block`, from its position `next`: the tile and
// its k slabs [s0, s1), and the position after it. A stream-K block's
// position is an iteration of its range (it starts at sk_begin); a
// data-parallel block's is 0 before its one tile and 1 after. False: done.
__device__ __forceinline__ bool sk_piece(const StreamKPlan& plan, unsigned block, unsigned next, unsigned& tile,
                                         unsigned& s0, unsigned& s1, unsigned& after) {
  if (block >= plan.sk_ctas) {
    tile = block - plan.sk_ctas + plan.sk_tiles;
    s0 = 0, s1 = plan.iters, after = 1;
    return next == 0;
  }
  const unsigned end = sk_begin(plan, block + 1);
  tile = next / plan.iters;
  const unsigned tile_begin = tile * plan.iters;
  s0 = next - tile_begin;
  s1 = end - tile_begin < plan.iters ? end - tile_begin : plan.iters;
  after = tile_begin + s1;
  return next < end;
}

// Blocks [0, sk_ctas): stream-K ranges; the rest: one data-parallel tile each
// (tiles sk_tiles.. of the grouped order). Both run the same loop, so the
// kernel holds one copy of the unrolled main loop (instruction cache: stream-K
// and data-parallel blocks share SMs).
template <class P, bool B_VEC>
__global__ void __launch_bounds__(P::THREADS, P::MIN_BLOCKS)
    gemm_warp_tiled_sk_kernel(GemmArgs p, unsigned tiles_m, unsigned tiles_n, bool c_vec, StreamKPlan plan) {
  extern __shared__ float4 smem_vec[];  // float4: 16-byte alignment of the dynamic buffer
  float* smem = reinterpret_cast<float*>(smem_vec);
  float acc[P::TM][P::TN];
  // The block's position lives in shared memory, not in registers: at the
  // 128-register cap, loop state kept live across the main loop spilled (116
  // bytes, -Xptxas -v). Everything else is recomputed after the main loop.
  __shared__ unsigned next;
  if (threadIdx.x == 0) next = blockIdx.x < plan.sk_ctas ? sk_begin(plan, blockIdx.x) : 0;
  __syncthreads();
  for (;;) {
    unsigned tile, s0, s1, after, tm, tn;
    if (!sk_piece(plan, blockIdx.x, next, tile, s0, s1, after)) break;  // uniform: all read the same `next`
    grouped_tile(tile, tiles_m, tiles_n, P::GROUP_M, tm, tn);
    warp_tiled_mainloop<P, Read::along_k, B_VEC ? Read::across_k_16 : Read::across_k_4, false>(p, smem, tm, tn, s0, s1,
                                                                                        acc);

    const unsigned me = block_index_again();
    (void)sk_piece(plan, me, *static_cast<volatile unsigned*>(&next), tile, s0, s1, after);
    grouped_tile(tile, tiles_m, tiles_n, P::GROUP_M, tm, tn);
    if ((s0 == 0 && s1 == plan.iters) || stream_k_fixup<P>(plan, me, tile, acc))
      warp_tiled_epilogue<P, false>(p, tm, tn, c_vec, acc);
    __syncthreads();  // every thread has read `next` and is done with the stages (the next prologue writes them)
    if (threadIdx.x == 0) next = after;
    __syncthreads();
  }
}

// ---- host side -----------------------------------------------------------------

// Raises the shared-memory limit once per device; returns the resident block
// slots (blocks per SM x SMs), queried once per device.
template <class P, bool B_VEC>
std::size_t stream_k_slots() {
  static std::atomic<int> cache[tessera::gpu::device_detail::MAX_CACHED_DEVICES] = {};
  const auto kernel = gemm_warp_tiled_sk_kernel<P, B_VEC>;
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  const bool cached = device >= 0 && device < tessera::gpu::device_detail::MAX_CACHED_DEVICES;
  int blocks = cached ? cache[device].load(std::memory_order_relaxed) : 0;
  if (blocks == 0) {  // racing first queries store the same value
    TESSERA_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(P::SMEM_BYTES)));
    TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, P::THREADS, P::SMEM_BYTES));
    if (blocks <= 0) throw Error("gemm warp_tiled stream-K: the kernel does not fit on this device");
    if (cached) cache[device].store(blocks, std::memory_order_relaxed);
  }
  return std::size_t(blocks) * std::size_t(tessera::gpu::sm_count());
}

template <class P>
StreamKPlan stream_k_plan_for(const GemmSpec& s, bool b_vec) {
  const std::size_t tiles = detail::div_up(s.m, P::BM) * detail::div_up(s.n, P::BN);
  const std::size_t iters = detail::div_up(s.k, P::BK);
  if (s.m == 0 || s.n == 0) return {};
  return stream_k_plan(tiles, iters, b_vec ? stream_k_slots<P, true>() : stream_k_slots<P, false>());
}

// Workspace of a call: only the B alignment (not known from the spec) could
// change the slots, and both instantiations have the same resources; the
// larger of the two plans is asked for all the same.
template <class P>
std::size_t stream_k_workspace_bytes(const GemmSpec& s) {
  if (s.op != GemmOp::ab) return 0;
  const std::size_t a = StreamKWorkspace<P>::bytes(stream_k_plan_for<P>(s, true));
  const std::size_t b = StreamKWorkspace<P>::bytes(stream_k_plan_for<P>(s, false));
  return a > b ? a : b;
}

template <class P, bool B_VEC>
void launch_warp_tiled_sk(const GemmCall& call, const char* name) {
  const auto& s = call.spec;
  if (s.m == 0 || s.n == 0) return;
  const std::size_t tiles = tile_count(s.m, s.n, P::BM, P::BN, name);  // throws past a grid's capacity
  StreamKPlan plan = stream_k_plan_for<P>(s, B_VEC);
  if (plan.sk_ctas != 0) {
    if (call.workspace == nullptr) throw Error(std::string(name) + ": stream-K needs a workspace (none given)");
    auto* base = static_cast<unsigned char*>(call.workspace);
    plan.counters = reinterpret_cast<unsigned*>(base);
    plan.partials = reinterpret_cast<float4*>(base + StreamKWorkspace<P>::counter_bytes(plan));
    TESSERA_CUDA(cudaMemsetAsync(plan.counters, 0, std::size_t(plan.sk_tiles) * sizeof(unsigned), call.stream));
  }
  const std::size_t grid = plan.sk_ctas + (tiles - plan.sk_tiles);
  detail::launch(name, gemm_warp_tiled_sk_kernel<P, B_VEC>, dim3(static_cast<unsigned>(grid)), dim3(P::THREADS),
                 P::SMEM_BYTES, call.stream, s.m * s.n, args_of(call),
                 static_cast<unsigned>(detail::div_up(s.m, P::BM)), static_cast<unsigned>(detail::div_up(s.n, P::BN)),
                 rows_aligned16(call.c, s.ldc), plan);
}

template <class P>
void run_warp_tiled_sk_ab(const GemmCall& call) {
  if (rows_aligned16(call.b, call.spec.ldb))
    launch_warp_tiled_sk<P, true>(call, "gemm_warp_tiled_sk_kernel (A*B)");
  else launch_warp_tiled_sk<P, false>(call, "gemm_warp_tiled_sk_kernel (A*B, 4-byte B copies)");
}

}  // namespace tessera::gemm_impl::dev
