// Step 10 — tessera's FP32 GEMM for Hopper: warp tiling, register micro-tiles
// fed by LDS.128, a cp.async multi-stage pipeline, grouped block order for
// L2, conflict-free shared layouts. One kernel template; a tile configuration
// (WarpTiledPolicy) is its block, warp and thread tiles plus code-generation
// options (codegen::). The product instantiates the configurations the
// dispatcher chooses among (10_warp_tiled_policies.cuh, rated in policy.hpp);
// the lab's sweep (lab/gemm/warp_tiled_sweep.cu) instantiates the others.
//
// What it changes over step 9:
// - Warp tiling: the block tile BM x BN is split into warp tiles WM x WN and
//   each warp's 32 lanes into an LANES_M x LANES_N grid (8 x 4) of TM x TN
//   micro-tiles. A lane's TM rows are TM/4 groups of 4 consecutive rows, the
//   groups LANES_M*4 rows apart (likewise columns), so at each k a warp's
//   fragment reads are LDS.128 of 8 (A) and 4 (B) distinct 16-byte words,
//   contiguous: 128 and 64 bytes, one shared-memory wavefront each, no bank
//   conflict (step 9's neighbours were 32 bytes apart).
// - cp.async pipeline, STAGES deep: the copies for slab t + STAGES - 1 are in
//   flight while slab t is multiplied; one __syncthreads per slab; no
//   registers spent on staging.
// - A transposed into shared memory (As[k][m]) by 4-byte cp.async (the copy
//   engine cannot transpose 16-byte vectors): a warp copies 4 rows x 8
//   consecutive k (32-byte global runs: whole sectors) and writes them to
//   banks (k * 4 + m) mod 32 — all 32 distinct thanks to the +4 padding of
//   each shared row, which also keeps rows 16-byte aligned for LDS.128.
// - B is copied as 16-byte vectors when its rows are 16-byte aligned (ldb %
//   4 == 0, aligned base), else 4 bytes per element; partial vectors at the
//   right edge copy only their valid bytes and zero-fill the rest (cp.async
//   src-size), rows past k copy nothing and zero-fill.
// - Grouped block order (GROUP_M tile rows per group): consecutive blocks
//   walk down a group's tile rows before moving right, so the blocks resident
//   at one time share A's row panels and B's column panels in L2.
// - Transposed operands, read in place (template parameters A_READ, B_READ:
//   Read): the shared stages always hold As[k][m] and Bs[k][n]; only the
//   global->shared copies differ. A k-contiguous source (A as stored; B^T
//   as stored, n x k) is copied by KMajorCopy (4-byte, transposing, as A
//   above); a source whose stored rows run along m or n (B as stored; A^T as
//   stored, k x m) by RowCopy (16-byte when the rows are aligned, as B
//   above). No scratch copy; the NN kernel is the same instantiation as
//   before (KMajorCopy for A, RowCopy for B).
// - Split-k (gemm_warp_tiled_split_k_kernel): one block per tile and k
//   slice, the same main loop over the slice's slabs, raw sums stored to the
//   slice's m x n partial in the workspace; gemm_split_k_reduce_kernel adds
//   the slices in slice order and applies alpha / beta: deterministic. For
//   middling sizes, where one block per tile leaves SMs idle (policy.hpp's
//   SHAPE_RULES choose the slices).
// - C = A*A^T (AAT): both operands are rows of A (the "B" tile is A's rows,
//   transposed like the A tile); only tiles on or below the diagonal run, and
//   each off-diagonal tile also writes its mirror C[j][i] (a lane's 4
//   consecutive rows become 4 consecutive columns there: float4 stores), so
//   the symmetric product costs half the multiply-adds and is exactly
//   symmetric.
//
// - Paired lanes (codegen::PAIRED_LANES): the lane grid is laid out so that
//   lanes n and n^1 read the same A fragment and lanes n and n^2 the same B
//   fragment. Shared memory returns 128 bytes (one register per lane) per
//   cycle; an LDS.128 takes 4 return cycles unless such pairs share their
//   addresses, then 2 (NVIDIA's rule for sm_70+; CUTLASS's SIMT lane layout
//   RowMajorInterleaved<2> does the same). The row-major lane grid satisfies
//   it for A only (lanes 4i..4i+3 share a row group) and B's LDS.128 take 4
//   cycles: per warp and k 2*2 + 2*4 = 12 return cycles against 64 FFMA, with
//   16 warps per SM 192 of every 256 cycles — near saturation once the
//   cp.async writes are added. Paired: 2*2 + 2*2 = 8, 128 of 256 cycles.
//
// - Interior copies (codegen::INTERIOR_COPIES): a thread whose copies of a
//   whole slab lie inside the matrices issues them unguarded, with immediate
//   offsets; the guarded copies cost ~110 of the ~1240 instructions a warp
//   issues per 128x128x16 slab (SASS), the unguarded ones ~25.
//
// - Serpentine multiply-adds (codegen::SERPENTINE_FMA): the micro-tile's
//   products are issued row by row with the column order reversed on every
//   other row, so the B register read last in one row is the first of the
//   next (an operand-reuse hit at each row turn) and ptxas allocates the
//   accumulators against fewer register-bank collisions with the B fragment:
//   in the 128x128x16 main loop, FFMA whose two uncached sources share a bank
//   parity drop from 26% to 12% (SASS). The profile of the plain order shows
//   0.48 warps per issue stalled on dispatch (cuBLAS 0.10); the serpentine
//   order measured +5% (4096^3) and +7% (8192^3). Results are bitwise the
//   same: each accumulator still adds its k terms in order.
//
// Bottleneck: FFMA issue. Per k a lane does TM*TN FFMA against
// (TM + TN) / 4 LDS.128: 64 : 4 for 8 x 8 (94% FFMA); the pipeline hides
// global latency. Per slab the copies and bookkeeping add to that: FFMA are
// 82% of the main loop's instructions with guarded copies (128x128x16),
// 88% with interior copies, 90% with interior copies and BK = 32. Measured
// (H100): 77% of the FP32 rate with interior copies (BK 16 and 32 alike:
// issue share was not the limit), the same with paired lanes (the
// shared-memory return path was not the limit either), 82% with serpentine
// multiply-adds (docs/gemm.md, "What was tried").
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/cp_async.cuh"
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::gemm_impl::dev {

using tessera::gpu::cp_async_16;
using tessera::gpu::cp_async_4;
using tessera::gpu::cp_async_commit;
using tessera::gpu::cp_async_wait;

// Code-generation options of a tile configuration, combined with |.
namespace codegen {
inline constexpr unsigned PLAIN = 0;
// Whole k slabs get their own copy path (no k tests). Register allocation
// decides whether it spills at the cap: it removed 128x128x8's 4-byte spill
// and gave 128x64x16 72-128 bytes (lab/gemm/warp_tiled_sweep.cu).
inline constexpr unsigned WHOLE_SLAB_COPIES = 1u << 0;
// A thread whose copies of a whole slab lie inside the matrices issues them
// without bound tests, with immediate offsets (copy_slab).
inline constexpr unsigned INTERIOR_COPIES = 1u << 1;
// The lane grid pairs lanes for LDS.128 broadcasts: n, n^1 share A's
// fragment words, n, n^2 B's (lane_coords).
inline constexpr unsigned PAIRED_LANES = 1u << 2;
// Odd micro-tile rows run their columns backwards (the multiply-adds).
inline constexpr unsigned SERPENTINE_FMA = 1u << 3;
}  // namespace codegen

// A tile configuration. Block tile BM x BN x BK, warp tile WM x WN, thread
// micro-tile TM x TN, STAGES-deep cp.async pipeline, at least MIN_BLOCKS
// resident blocks per SM (the register cap the compiler must meet), and the
// codegen:: options.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int STAGES_, int MIN_BLOCKS_,
          unsigned OPTIONS_ = codegen::PLAIN>
struct WarpTiledPolicy {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr bool WHOLE_SLAB_COPIES = (OPTIONS_ & codegen::WHOLE_SLAB_COPIES) != 0;
  static constexpr bool INTERIOR_COPIES = (OPTIONS_ & codegen::INTERIOR_COPIES) != 0;
  static constexpr bool PAIRED_LANES = (OPTIONS_ & codegen::PAIRED_LANES) != 0;
  static constexpr bool SERPENTINE_FMA = (OPTIONS_ & codegen::SERPENTINE_FMA) != 0;
  static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
  static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
  static constexpr int LANES_M = WM / TM, LANES_N = WN / TN;  // the lane grid of a warp
  static constexpr int GROUPS_M = TM / 4, GROUPS_N = TN / 4;  // float4 groups per lane
  static constexpr int PAD = 4;  // floats per shared row: conflict-free transposed writes, 16-byte rows
  static constexpr int A_STRIDE = BM + PAD, B_STRIDE = BN + PAD;
  static constexpr int STAGE_FLOATS = BK * (A_STRIDE + B_STRIDE);
  static constexpr std::size_t SMEM_BYTES = std::size_t(STAGES) * STAGE_FLOATS * sizeof(float);
  static constexpr unsigned GROUP_M = 8;  // tile rows per L2 group (the usual choice for 128-row tiles)

  static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
  static_assert(WM % TM == 0 && WN % TN == 0 && LANES_M * LANES_N == 32, "32 lanes tile the warp tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "micro-tiles are made of float4 groups");
  static_assert(BK % 8 == 0, "k slabs are whole 32-byte sectors (8 floats) of A's rows");
  static_assert(BM % 32 == 0 && BN % 32 == 0, "the conflict-free transposed write needs rows % 32 == 0");
  static_assert((8 * BM) % THREADS == 0 && (8 * BN) % THREADS == 0, "k-major copies: whole row groups per pass");
  static_assert(THREADS % BK == 0 && BN % (4 * (THREADS / BK)) == 0, "B copies: whole k rows per thread group");
  static_assert(STAGES >= 2, "a pipeline needs two stages at least");
  static_assert(!PAIRED_LANES || (LANES_M % 2 == 0 && LANES_N % 2 == 0), "paired lanes: even lane grid sides");
  static_assert(SMEM_BYTES <= 227 * 1024, "shared memory of one block on sm_90");
  static_assert(THREADS <= 1024, "block size");
};

// ---- copies of one k slab into one pipeline stage --------------------------

// Whole copies (the source entirely inside the matrix): the size is an
// immediate, no source-size register, no select of a fallback address. The
// interior path below issues these with immediate offsets only.
__device__ __forceinline__ void cp_async_4_whole(float* smem, const float* gmem) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_16_whole(float* smem, const float* gmem) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
}

// Copies are stateful: each thread keeps one pointer into its part of the
// source, advanced by one slab after each copy, and a validity mask — the
// fewest registers next to the 64-128 accumulators (64-bit address
// arithmetic per copy spilled at the 128-register cap of 2 blocks per SM).
// Lane offsets are recomputed from threadIdx (a special register the
// compiler can re-read) rather than kept; `ld` and `any` (a valid address
// for the copies that read nothing) are kernel parameters: no registers.

// A rows-x-K source read along k (A as stored; B^T as stored for op(B) = T;
// A's rows as B of A*A^T), element (k, x)
// at src[(x0 + x) * ld + k], written transposed: dst[k * STRIDE + x]. 4-byte
// copies; thread tid copies k = tid % 8 (+ 8 per k group) of rows
// tid / 8 + g * (THREADS / 8).
template <class P, int X>
struct KMajorCopy {
  static constexpr int STRIDE = X + P::PAD;
  static constexpr int ROW_STEP = P::THREADS / 8;  // rows between a thread's row groups
  static constexpr int ROW_GROUPS = X / ROW_STEP;
  static constexpr int K_GROUPS = P::BK / 8;
  static_assert(ROW_GROUPS <= 32, "row validity fits a 32-bit mask");
  const float* ptr;  // row x0 + tid / 8, column k0 + tid % 8 of the current slab
  unsigned valid;    // bit g: row group g is inside the matrix

  __device__ KMajorCopy(const float* src, std::size_t ld, std::size_t x0, std::size_t rows, unsigned tid) : valid(0) {
    const std::size_t x = x0 + tid / 8;
    ptr = src + x * ld + tid % 8;
#pragma unroll
    for (int g = 0; g < ROW_GROUPS; ++g)
      if (x + std::size_t(g) * ROW_STEP < rows) valid |= 1u << g;
  }

  // Moves to slab `slabs` of the range (a k sub-range's first).
  __device__ __forceinline__ void skip(unsigned slabs, std::size_t) { ptr += std::size_t(slabs) * P::BK; }

  // Copies the slab (k_left = k still to go from its first k, capped at BK)
  // into `stage` and moves to the next slab. `ld` comes from the kernel
  // parameters on every call rather than a member: one register pair less.
  __device__ __forceinline__ void copy(float* stage, unsigned k_left, std::size_t ld, const float* any) {
    const unsigned k_lane = threadIdx.x % 8, dst = k_lane * STRIDE + threadIdx.x / 8;
#pragma unroll
    for (int kg = 0; kg < K_GROUPS; ++kg) {
      const bool k_ok = kg * 8 + k_lane < k_left;
#pragma unroll
      for (int g = 0; g < ROW_GROUPS; ++g) {
        const bool ok = k_ok && ((valid >> g) & 1u);
        const float* src = ptr + std::size_t(g) * ROW_STEP * ld + kg * 8;
        cp_async_4(stage + dst + kg * 8 * STRIDE + g * ROW_STEP, ok ? src : any, ok);
      }
    }
    ptr += P::BK;
  }

  // Interior path (P::INTERIOR_COPIES): all of this thread's rows inside the
  // matrix and the slab whole — no tests, the k offsets immediates, one
  // 64-bit add per row group.
  static constexpr unsigned ALL_ROWS = ROW_GROUPS == 32 ? ~0u : (1u << ROW_GROUPS) - 1u;
  __device__ __forceinline__ bool interior() const { return valid == ALL_ROWS; }
  __device__ __forceinline__ void copy_interior(float* stage, std::size_t ld) {
    float* dst = stage + (threadIdx.x % 8) * STRIDE + threadIdx.x / 8;
    const float* row = ptr;
#pragma unroll
    for (int g = 0; g < ROW_GROUPS; ++g) {
#pragma unroll
      for (int kg = 0; kg < K_GROUPS; ++kg) cp_async_4_whole(dst + kg * 8 * STRIDE + g * ROW_STEP, row + kg * 8);
      row += std::size_t(ROW_STEP) * ld;
    }
    ptr += P::BK;
  }
};

// A source read across k: k rows of X consecutive elements (B as stored,
// K x N; A^T as stored for op(A) = T, K x M), element (k, x) at
// src[k * ld + x0 + x], to dst[k * STRIDE + x]. Each thread copies within one
// k row, k = tid / LANES_ROW, the columns x = WIDTH * (tid % LANES_ROW +
// j * LANES_ROW): one pointer with immediate offsets. VEC: 16-byte copies
// (rows 16-byte aligned); else 4 bytes. A warp covers 32 / LANES_ROW rows of
// LANES_ROW * WIDTH consecutive floats: whole sectors.
template <class P, int X, bool VEC>
struct RowCopy {
  static constexpr int STRIDE = X + P::PAD;
  static constexpr int WIDTH = VEC ? 4 : 1;                     // floats per copy
  static constexpr int LANES_ROW = P::THREADS / P::BK;          // threads per k row
  static constexpr int PASSES = X / (WIDTH * LANES_ROW);        // copies per thread
  static_assert(P::THREADS % P::BK == 0 && PASSES * WIDTH * LANES_ROW == X, "whole rows per thread group");
  const float* ptr;  // row k0 + tid / LANES_ROW, first column of this thread, of the current slab
  int cols_left;     // columns of the source from this thread's first column on (clamped to int)

  __device__ RowCopy(const float* b, std::size_t ld, std::size_t x0, std::size_t cols, unsigned tid) {
    const std::size_t col = x0 + (tid % LANES_ROW) * WIDTH;
    const std::size_t left = col < cols ? cols - col : 0;
    cols_left = static_cast<int>(left < std::size_t(X) ? left : std::size_t(X));
    ptr = b + std::size_t(tid / LANES_ROW) * ld + col;
  }

  // Moves to slab `slabs` of the range (a k sub-range's first).
  __device__ __forceinline__ void skip(unsigned slabs, std::size_t ld) { ptr += std::size_t(slabs) * P::BK * ld; }

  __device__ __forceinline__ void copy(float* stage, unsigned k_left, std::size_t ld, const float* any) {
    const unsigned k_lane = threadIdx.x / LANES_ROW;
    float* dst = stage + k_lane * STRIDE + (threadIdx.x % LANES_ROW) * WIDTH;
    const bool k_ok = k_lane < k_left;
#pragma unroll
    for (int j = 0; j < PASSES; ++j) {
      const int left = cols_left - j * LANES_ROW * WIDTH;  // columns from this copy's first on
      const int n = !k_ok || left <= 0 ? 0 : 4 * (left < WIDTH ? left : WIDTH);
      const float* src = n > 0 ? ptr + j * LANES_ROW * WIDTH : any;
      if constexpr (VEC) cp_async_16(dst + j * LANES_ROW * WIDTH, src, n);
      else cp_async_4(dst + j * LANES_ROW * WIDTH, src, n > 0);
    }
    ptr += std::size_t(P::BK) * ld;
  }

  // Interior path (P::INTERIOR_COPIES): every column this thread copies is
  // inside the source (its last copy ends EXTENT columns past its first) and
  // the slab is whole — no tests, immediate offsets.
  static constexpr int EXTENT = (PASSES - 1) * LANES_ROW * WIDTH + WIDTH;
  __device__ __forceinline__ bool interior() const { return cols_left >= EXTENT; }
  __device__ __forceinline__ void copy_interior(float* stage, std::size_t ld) {
    float* dst = stage + (threadIdx.x / LANES_ROW) * STRIDE + (threadIdx.x % LANES_ROW) * WIDTH;
#pragma unroll
    for (int j = 0; j < PASSES; ++j) {
      if constexpr (VEC) cp_async_16_whole(dst + j * LANES_ROW * WIDTH, ptr + j * LANES_ROW * WIDTH);
      else cp_async_4_whole(dst + j * LANES_ROW * WIDTH, ptr + j * LANES_ROW * WIDTH);
    }
    ptr += std::size_t(P::BK) * ld;
  }
};

// How an operand's tile is read from global memory (row-major storage). The
// NN product reads A along k and B across k; op(A) = T reads A's stored
// K x M rows across k, op(B) = T reads B's stored N x K rows along k (as the
// A*A^T kernel reads A's rows for its right operand).
enum class Read {
  along_k,        // k contiguous: 4-byte copies transposed into shared memory (KMajorCopy)
  across_k_16,    // the tile's rows contiguous and 16-byte aligned: 16-byte copies (RowCopy)
  across_k_4,     // the same rows, not 16-byte aligned: 4-byte copies
};

// The copier of an operand tile of X rows (A: BM, B: BN) read as R.
template <class P, int X, Read R>
using OperandCopy = std::conditional_t<R == Read::along_k, KMajorCopy<P, X>, RowCopy<P, X, R == Read::across_k_16>>;

// How an operand is read: k contiguous in its storage (A as stored, B
// transposed) or not, and whether its stored rows are 16-byte aligned.
constexpr Read read_of(bool k_contiguous, bool aligned16) {
  return k_contiguous ? Read::along_k : (aligned16 ? Read::across_k_16 : Read::across_k_4);
}

// ---- lane layout -------------------------------------------------------------

// A lane's place (lm, ln) in its warp's LANES_M x LANES_N grid. Row-major:
// lm = lane / LANES_N, ln = lane % LANES_N. Paired (P::PAIRED_LANES): bit 0
// of the lane picks ln's low bit, bit 1 lm's low bit, the bits above the
// rest (row-major over 2 x 2 quads), so that lm does not depend on bit 0 and
// ln not on bit 1 — lanes n, n^1 load the same A words, lanes n, n^2 the
// same B words: LDS.128 in 2 return cycles instead of 4. A bijection onto
// the grid; a warp's set of fragment addresses (and so its bank pattern) is
// the row-major one's.
template <class P>
__device__ __forceinline__ void lane_coords(unsigned lane, unsigned& lm, unsigned& ln) {
  if constexpr (P::PAIRED_LANES) {
    const unsigned quad = lane / 4;
    lm = ((lane >> 1) & 1u) + 2 * (quad / (P::LANES_N / 2));
    ln = (lane & 1u) + 2 * (quad % (P::LANES_N / 2));
  } else {
    lm = lane / P::LANES_N;
    ln = lane % P::LANES_N;
  }
}

// ---- block order -----------------------------------------------------------

// Grouped order: GROUP_M tile rows at a time, down the group's rows first.
__device__ __forceinline__ void grouped_tile(unsigned id, unsigned tiles_m, unsigned tiles_n, unsigned group_m,
                                             unsigned& tm, unsigned& tn) {
  const unsigned per_group = group_m * tiles_n;
  const unsigned first_m = id / per_group * group_m;
  const unsigned rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
  const unsigned in_group = id % per_group;
  tm = first_m + in_group % rows;
  tn = in_group / rows;
}

// ---- the kernel ------------------------------------------------------------

// The main loop: acc = the block's tile (tm, tn) of op(A)*op(B) over the k
// slabs [slab_begin, slab_end) (slab t covers k = t * BK .. t * BK + BK - 1;
// the last slab of the matrix may be ragged and is zero-filled past k).
// A_READ / B_READ say how each operand's storage is read (Read; A*A^T: both
// are A's rows, along k). The data-parallel kernel runs every slab; the
// split-k kernel and the stream-K kernel (lab/gemm/warp_tiled_stream_k.cuh)
// run sub-ranges. The caller synchronises the block before the shared stages
// are written again.
template <class P, Read A_READ, Read B_READ, bool AAT>
__device__ __forceinline__ void warp_tiled_mainloop(const GemmArgs& p, float* smem, unsigned tm, unsigned tn,
                                                    unsigned slab_begin, unsigned slab_end,
                                                    float (&acc)[P::TM][P::TN]) {
  static_assert(!AAT || (A_READ == Read::along_k && B_READ == Read::along_k), "A*A^T reads A's rows for both");
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const std::size_t bm0 = std::size_t(tm) * P::BM, bn0 = std::size_t(tn) * P::BN;

  OperandCopy<P, P::BM, A_READ> copy_a(p.a, p.lda, bm0, p.m, tid);
  using BCopy = OperandCopy<P, P::BN, B_READ>;
  BCopy copy_b = [&] {
    if constexpr (AAT) return BCopy(p.a, p.lda, bn0, p.n, tid);
    else return BCopy(p.b, p.ldb, bn0, p.n, tid);
  }();
  if (slab_begin != 0) {  // a k sub-range: start the copies at its first slab
    copy_a.skip(slab_begin, p.lda);
    copy_b.skip(slab_begin, AAT ? p.lda : p.ldb);
  }

  // Slabs are issued in order; supports(): k < 2^31.
  const unsigned slabs = slab_end - slab_begin;
  auto stage = [&](unsigned s) { return smem + s * P::STAGE_FLOATS; };
  auto copy_slab = [&](unsigned s, unsigned slab) {
    const std::size_t k_left = p.k - std::size_t(slab) * P::BK;
    const unsigned left = k_left < std::size_t(P::BK) ? static_cast<unsigned>(k_left) : P::BK;
    float* base = stage(s);
    // INTERIOR_COPIES: each copier decides for itself (a thread's copies lie
    // wholly inside or not); both paths advance its pointer by one slab.
    if constexpr (P::INTERIOR_COPIES) {
      const std::size_t ld_b = AAT ? p.lda : p.ldb;
      if (left == P::BK && copy_a.interior()) copy_a.copy_interior(base, p.lda);
      else copy_a.copy(base, left, p.lda, p.a);
      if (left == P::BK && copy_b.interior()) copy_b.copy_interior(base + P::BK * P::A_STRIDE, ld_b);
      else copy_b.copy(base + P::BK * P::A_STRIDE, left, ld_b, AAT ? p.a : p.b);
    } else if (P::WHOLE_SLAB_COPIES && left == P::BK) {
      // WHOLE_SLAB_COPIES: every slab but the last is whole, and with k_left a
      // constant there the k tests fold away.
      copy_a.copy(base, P::BK, p.lda, p.a);
      copy_b.copy(base + P::BK * P::A_STRIDE, P::BK, AAT ? p.lda : p.ldb, AAT ? p.a : p.b);
    } else {
      copy_a.copy(base, left, p.lda, p.a);
      copy_b.copy(base + P::BK * P::A_STRIDE, left, AAT ? p.lda : p.ldb, AAT ? p.a : p.b);
    }
  };

  // Prologue: slabs 0 .. STAGES-2 of the range in flight (a group per slab,
  // empty or not, so that group counts match slab numbers).
#pragma unroll
  for (int s = 0; s < P::STAGES - 1; ++s) {
    if (unsigned(s) < slabs) copy_slab(s, slab_begin + s);
    cp_async_commit();
  }

  // This lane's fragments: rows wm*WM + g*LANES_M*4 + lm*4 + (0..3), columns likewise.
  const unsigned wm = warp / P::WARPS_N, wn = warp % P::WARPS_N;
  unsigned lm, ln;
  lane_coords<P>(lane, lm, ln);
  const unsigned a_off = wm * P::WM + lm * 4, b_off = wn * P::WN + ln * 4;

#pragma unroll
  for (int i = 0; i < P::TM; ++i)
#pragma unroll
    for (int j = 0; j < P::TN; ++j) acc[i][j] = 0.0f;

  unsigned read_stage = 0;  // the stage written this iteration is the one read last iteration
  for (unsigned t = 0; t < slabs; ++t) {
    cp_async_wait<P::STAGES - 2>();  // slab t has landed (this thread's copies) ...
    __syncthreads();                 // ... everyone's; and slab t-1's stage is free again
    if (t + P::STAGES - 1 < slabs)
      copy_slab(read_stage == 0 ? P::STAGES - 1 : read_stage - 1, slab_begin + t + P::STAGES - 1);
    cp_async_commit();

    const float* As = stage(read_stage);
    const float* Bs = As + P::BK * P::A_STRIDE;
#pragma unroll
    for (int k = 0; k < P::BK; ++k) {
      float a[P::TM], b[P::TN];
#pragma unroll
      for (int g = 0; g < P::GROUPS_M; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(As + k * P::A_STRIDE + a_off + g * P::LANES_M * 4);
        a[4 * g] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
      }
#pragma unroll
      for (int g = 0; g < P::GROUPS_N; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(Bs + k * P::B_STRIDE + b_off + g * P::LANES_N * 4);
        b[4 * g] = v.x, b[4 * g + 1] = v.y, b[4 * g + 2] = v.z, b[4 * g + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < P::TM; ++i)
#pragma unroll
        for (int jj = 0; jj < P::TN; ++jj) {
          const int j = P::SERPENTINE_FMA && (i & 1) ? P::TN - 1 - jj : jj;
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    }
    read_stage = read_stage + 1 == P::STAGES ? 0 : read_stage + 1;
  }
  cp_async_wait<0>();  // nothing real is pending (the last groups are empty); keep it explicit
}

// This thread's place in the block tile after the main loop: recomputed from
// a fresh read of the special register (keeping the offsets live across the
// loop spilled at the 128-register cap; volatile asm reads are not merged
// with the ones before the loop). a_off: the first of its rows, b_off: of
// its columns.
template <class P>
__device__ __forceinline__ void epilogue_offsets(unsigned& a_off, unsigned& b_off) {
  unsigned tid_again;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid_again));
  const unsigned w = tid_again / 32;
  unsigned lm_e, ln_e;
  lane_coords<P>(tid_again % 32, lm_e, ln_e);
  a_off = (w / P::WARPS_N) * P::WM + lm_e * 4;
  b_off = (w % P::WARPS_N) * P::WN + ln_e * 4;
}

// The block index, re-read after the main loop (see epilogue_offsets).
__device__ __forceinline__ unsigned block_index_again() {
  unsigned block_again;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block_again));
  return block_again;
}

// Epilogue: C = alpha * acc + beta * C for tile (tm, tn), C[row][col .. col+3]
// per float4 group of the micro-tile (A*A^T: and the mirror tile).
template <class P, bool AAT>
__device__ __forceinline__ void warp_tiled_epilogue(const GemmArgs& p, unsigned tm, unsigned tn, bool c_vec,
                                                    const float (&acc)[P::TM][P::TN]) {
  unsigned a_off_e, b_off_e;
  epilogue_offsets<P>(a_off_e, b_off_e);
  const std::size_t bm0_e = std::size_t(tm) * P::BM, bn0_e = std::size_t(tn) * P::BN;
  const bool mirror = AAT && tm != tn;
#pragma unroll
  for (int gi = 0; gi < P::GROUPS_M; ++gi) {
    const std::size_t row_base = bm0_e + a_off_e + gi * P::LANES_M * 4;
#pragma unroll
    for (int gj = 0; gj < P::GROUPS_N; ++gj) {
      const std::size_t col_base = bn0_e + b_off_e + gj * P::LANES_N * 4;
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const std::size_t row = row_base + r;
        if (row < p.m) {
          const float v[4] = {acc[4 * gi + r][4 * gj], acc[4 * gi + r][4 * gj + 1], acc[4 * gi + r][4 * gj + 2],
                              acc[4 * gi + r][4 * gj + 3]};
          store4_scaled(p.c + row * p.ldc, col_base, p.n, v, p.alpha, p.beta, c_vec);
        }
      }
      if (mirror) {  // C[col][row_base .. +3] = the same products, transposed
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          const std::size_t col = col_base + c;
          if (col < p.n) {
            const float v[4] = {acc[4 * gi][4 * gj + c], acc[4 * gi + 1][4 * gj + c], acc[4 * gi + 2][4 * gj + c],
                                acc[4 * gi + 3][4 * gj + c]};
            store4_scaled(p.c + col * p.ldc, row_base, p.m, v, p.alpha, p.beta, c_vec);
          }
        }
      }
    }
  }
}

// The tile of block `id`: grouped order for A*B, the lower triangle for A*A^T.
template <class P, bool AAT>
__device__ __forceinline__ void block_tile(unsigned id, unsigned tiles_m, unsigned tiles_n, unsigned& tm,
                                           unsigned& tn) {
  if constexpr (AAT) triangle_tile(id, tm, tn);
  else grouped_tile(id, tiles_m, tiles_n, P::GROUP_M, tm, tn);
}

// One block per output tile, every k slab (data-parallel).
template <class P, Read A_READ, Read B_READ, bool AAT>
__global__ void __launch_bounds__(P::THREADS, P::MIN_BLOCKS)
    gemm_warp_tiled_kernel(GemmArgs p, unsigned tiles_m, unsigned tiles_n, bool c_vec) {
  extern __shared__ float4 smem_vec[];  // float4: 16-byte alignment of the dynamic buffer
  unsigned tm, tn;
  block_tile<P, AAT>(blockIdx.x, tiles_m, tiles_n, tm, tn);
  const unsigned slabs = static_cast<unsigned>((p.k + P::BK - 1) / P::BK);  // supports(): k < 2^31
  float acc[P::TM][P::TN];
  warp_tiled_mainloop<P, A_READ, B_READ, AAT>(p, reinterpret_cast<float*>(smem_vec), tm, tn, 0, slabs, acc);
  block_tile<P, AAT>(block_index_again(), tiles_m, tiles_n, tm, tn);  // not kept live across the loop
  warp_tiled_epilogue<P, AAT>(p, tm, tn, c_vec, acc);
}

// ---- split-k -----------------------------------------------------------------

// Split-k: block b computes k slice b / tiles of tile b % tiles (grouped
// order within a slice) and stores its raw sums, unscaled, to its slice's
// dense m x n partial in the workspace; gemm_split_k_reduce_kernel then adds
// the slices in slice order and applies alpha and beta. No atomics: the
// result is the same on every run. Slice s covers slabs
// [s * slabs / splits, (s + 1) * slabs / splits): within one slab of equal.
template <class P, Read A_READ, Read B_READ>
__global__ void __launch_bounds__(P::THREADS, P::MIN_BLOCKS)
    gemm_warp_tiled_split_k_kernel(GemmArgs p, unsigned tiles_m, unsigned tiles_n, unsigned splits, float* partials,
                                   bool part_vec) {
  extern __shared__ float4 smem_vec[];
  const unsigned tiles = tiles_m * tiles_n;  // supports: tiles * splits < 2^31
  unsigned tm, tn;
  grouped_tile(blockIdx.x % tiles, tiles_m, tiles_n, P::GROUP_M, tm, tn);
  const unsigned slice = blockIdx.x / tiles;
  const std::uint64_t slabs = (p.k + P::BK - 1) / P::BK;
  const auto begin = static_cast<unsigned>(slabs * slice / splits);
  const auto end = static_cast<unsigned>(slabs * (slice + 1) / splits);
  float acc[P::TM][P::TN];
  warp_tiled_mainloop<P, A_READ, B_READ, false>(p, reinterpret_cast<float*>(smem_vec), tm, tn, begin, end, acc);
  const unsigned again = block_index_again();
  grouped_tile(again % tiles, tiles_m, tiles_n, P::GROUP_M, tm, tn);
  GemmArgs part = p;  // the slice's partial: dense rows of n, stored as summed (1 * acc is exact)
  part.c = partials + std::size_t(again / tiles) * p.m * p.n;
  part.ldc = p.n;
  part.alpha = 1.0f;
  part.beta = 0.0f;
  warp_tiled_epilogue<P, false>(part, tm, tn, part_vec, acc);
}

// C = alpha * (partial_0 + partial_1 + ... in slice order) + beta * C, WIDTH
// consecutive elements of one row per thread (4: rows of C 16-byte aligned
// and n % 4 == 0), grid-stride.
template <int WIDTH>
__global__ void gemm_split_k_reduce_kernel(const float* partials, std::size_t m, std::size_t n, unsigned splits,
                                           float alpha, float beta, float* c, std::size_t ldc) {
  const std::size_t groups = m * n / WIDTH, slice = m * n;
  for (std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; g < groups;
       g += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t e = g * WIDTH, i = e / n, j = e % n;
    float sum[WIDTH];
    if constexpr (WIDTH == 4) {
      const float4 v = *reinterpret_cast<const float4*>(partials + e);
      sum[0] = v.x, sum[1] = v.y, sum[2] = v.z, sum[3] = v.w;
      for (unsigned s = 1; s < splits; ++s) {
        const float4 w = *reinterpret_cast<const float4*>(partials + s * slice + e);
        sum[0] += w.x, sum[1] += w.y, sum[2] += w.z, sum[3] += w.w;
      }
      float out[4] = {sum[0], sum[1], sum[2], sum[3]};
      store4_scaled(c + i * ldc, j, n, out, alpha, beta, true);
    } else {
      sum[0] = partials[e];
      for (unsigned s = 1; s < splits; ++s) sum[0] += partials[s * slice + e];
      store_scaled(c + i * ldc + j, sum[0], alpha, beta);
    }
  }
}

// The workspace of a split into `splits` slices: one dense m x n partial each.
inline std::size_t split_k_workspace_bytes(std::size_t m, std::size_t n, unsigned splits) {
  return splits > 1 ? std::size_t(splits) * m * n * sizeof(float) : 0;
}

// ---- host side ---------------------------------------------------------------

// Raises the dynamic shared-memory limit of one kernel once per device (the
// default is 48 KiB) and, when asked, returns the blocks of it an SM holds.
template <auto KERNEL, class P>
int prepare_kernel(bool query_occupancy) {
  static std::atomic<std::uint64_t> prepared{0};  // bit d: device d done
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  const std::uint64_t bit = device < 64 ? std::uint64_t(1) << device : 0;
  if (bit == 0 || !(prepared.load(std::memory_order_relaxed) & bit)) {
    TESSERA_CUDA(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, int(P::SMEM_BYTES)));
    prepared.fetch_or(bit, std::memory_order_relaxed);
  }
  int blocks = 0;
  if (query_occupancy)
    TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, KERNEL, P::THREADS, P::SMEM_BYTES));
  return blocks;
}

template <class P, Read A_READ, Read B_READ, bool AAT>
void launch_warp_tiled(const GemmCall& call, const char* name) {
  const auto& s = call.spec;
  if (s.m == 0 || s.n == 0) return;
  const auto tiles_m = detail::div_up(s.m, P::BM), tiles_n = detail::div_up(s.n, P::BN);
  // A*A^T runs the tiles on and below the diagonal only.
  std::size_t tiles = tile_count(s.m, s.n, P::BM, P::BN, name);  // throws past a grid's capacity
  if constexpr (AAT) tiles = tiles_m * (tiles_m + 1) / 2;
  GemmArgs args = args_of(call);
  if constexpr (AAT) {
    args.b = args.a;  // the right operand is A^T: A's rows
    args.ldb = args.lda;
  }
  constexpr auto kernel = gemm_warp_tiled_kernel<P, A_READ, B_READ, AAT>;
  prepare_kernel<kernel, P>(false);
  detail::launch(name, kernel, dim3(static_cast<unsigned>(tiles)), dim3(P::THREADS), P::SMEM_BYTES, call.stream,
                 s.m * s.n, args, static_cast<unsigned>(tiles_m), static_cast<unsigned>(tiles_n),
                 rows_aligned16(call.c, s.ldc));
}

// Split-k into `splits` slices (> 1): the slices' kernel, then the ordered
// reduction. call.workspace holds split_k_workspace_bytes(m, n, splits).
template <class P, Read A_READ, Read B_READ>
void launch_warp_tiled_split_k(const GemmCall& call, unsigned splits, const char* name) {
  const auto& s = call.spec;
  if (s.m == 0 || s.n == 0) return;
  const std::size_t tiles = tile_count(s.m, s.n, P::BM, P::BN, name);
  if (tiles * splits > std::size_t(INT_MAX))
    throw Error(std::string(name) + ": " + std::to_string(tiles) + " tiles x " + std::to_string(splits) +
                " k slices do not fit in a grid");
  if (call.workspace == nullptr)
    throw Error(std::string(name) + ": split-k needs a workspace of " +
                std::to_string(split_k_workspace_bytes(s.m, s.n, splits)) + " bytes (none given)");
  auto* partials = static_cast<float*>(call.workspace);
  constexpr auto kernel = gemm_warp_tiled_split_k_kernel<P, A_READ, B_READ>;
  prepare_kernel<kernel, P>(false);
  const bool part_vec = s.n % 4 == 0 && reinterpret_cast<std::uintptr_t>(partials) % 16 == 0;
  detail::launch(name, kernel, dim3(static_cast<unsigned>(tiles * splits)), dim3(P::THREADS), P::SMEM_BYTES,
                 call.stream, s.m * s.n, args_of(call), static_cast<unsigned>(detail::div_up(s.m, P::BM)),
                 static_cast<unsigned>(detail::div_up(s.n, P::BN)), splits, partials, part_vec);
  // The reduction reads splits * m * n floats once: a bandwidth-bound pass
  // sized to a few blocks per SM.
  constexpr unsigned REDUCE_THREADS = 256;
  const bool vec = part_vec && rows_aligned16(call.c, s.ldc);
  const std::size_t groups = vec ? s.m * s.n / 4 : s.m * s.n;
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>(detail::div_up(groups, REDUCE_THREADS), 65535));
  if (vec)
    detail::launch("gemm_split_k_reduce_kernel (float4)", gemm_split_k_reduce_kernel<4>, dim3(blocks),
                   dim3(REDUCE_THREADS), 0, call.stream, s.m * s.n, static_cast<const float*>(partials), s.m, s.n,
                   splits, call.alpha, call.beta, call.c, s.ldc);
  else
    detail::launch("gemm_split_k_reduce_kernel", gemm_split_k_reduce_kernel<1>, dim3(blocks), dim3(REDUCE_THREADS), 0,
                   call.stream, s.m * s.n, static_cast<const float*>(partials), s.m, s.n, splits, call.alpha,
                   call.beta, call.c, s.ldc);
}

// One read combination: data-parallel (splits == 1) or split-k.
template <class P, Read A_READ, Read B_READ>
void launch_ab(const GemmCall& call, unsigned splits, const char* name) {
  if (splits > 1) launch_warp_tiled_split_k<P, A_READ, B_READ>(call, splits, name);
  else launch_warp_tiled<P, A_READ, B_READ, false>(call, name);
}

// C = A*B with configuration P: 16-byte B copies when B's rows allow them.
// The NN path every earlier release ran, instantiated alone for the lab's
// configurations.
template <class P>
void run_warp_tiled_ab_nn(const GemmCall& call) {
  if (call.spec.ta || call.spec.tb)
    throw Error("gemm_warp_tiled_kernel: this configuration computes op(A), op(B) = N,N only");
  if (rows_aligned16(call.b, call.spec.ldb))
    launch_warp_tiled<P, Read::along_k, Read::across_k_16, false>(call, "gemm_warp_tiled_kernel (A*B)");
  else launch_warp_tiled<P, Read::along_k, Read::across_k_4, false>(call, "gemm_warp_tiled_kernel (A*B, 4-byte B copies)");
}

// C = op(A)*op(B) with configuration P, in `splits` k slices (1: one block
// per tile). op(A) = N reads A along k, T across k (its stored rows are k);
// op(B) = N reads B across k, T along k. The across-k reads copy 16 bytes
// when the stored rows are 16-byte aligned. The NN, 16-byte-B kernel is the
// one run_warp_tiled_ab_nn launches.
template <class P>
void run_warp_tiled_ab_split(const GemmCall& call, unsigned splits) {
  const auto& s = call.spec;
  const bool a16 = rows_aligned16(call.a, s.lda), b16 = rows_aligned16(call.b, s.ldb);
  constexpr Read ALONG = Read::along_k, V16 = Read::across_k_16, V4 = Read::across_k_4;
  if (!s.ta && !s.tb) {
    if (b16) launch_ab<P, ALONG, V16>(call, splits, "gemm_warp_tiled_kernel (A*B)");
    else launch_ab<P, ALONG, V4>(call, splits, "gemm_warp_tiled_kernel (A*B, 4-byte B copies)");
  } else if (s.ta && !s.tb) {
    constexpr const char* name = "gemm_warp_tiled_kernel (A^T*B)";
    if (a16 && b16) launch_ab<P, V16, V16>(call, splits, name);
    else if (a16) launch_ab<P, V16, V4>(call, splits, name);
    else if (b16) launch_ab<P, V4, V16>(call, splits, name);
    else launch_ab<P, V4, V4>(call, splits, name);
  } else if (!s.ta) {
    launch_ab<P, ALONG, ALONG>(call, splits, "gemm_warp_tiled_kernel (A*B^T)");
  } else {
    constexpr const char* name = "gemm_warp_tiled_kernel (A^T*B^T)";
    if (a16) launch_ab<P, V16, ALONG>(call, splits, name);
    else launch_ab<P, V4, ALONG>(call, splits, name);
  }
}

template <class P>
void run_warp_tiled_ab(const GemmCall& call) {
  run_warp_tiled_ab_split<P>(call, 1);
}

// Symmetric C = A*A^T (square tiles only: the mirrored write).
template <class P>
void run_warp_tiled_aat(const GemmCall& call) {
  static_assert(P::BM == P::BN, "the mirrored write needs square tiles");
  launch_warp_tiled<P, Read::along_k, Read::along_k, true>(call, "gemm_warp_tiled_kernel (A*A^T)");
}

// Resident blocks per SM of the A*B kernel (vector B copies) on the current device.
template <class P>
int warp_tiled_resident_blocks() {
  return prepare_kernel<gemm_warp_tiled_kernel<P, Read::along_k, Read::across_k_16, false>, P>(true);
}

// The kernels of configuration P. OPS: every op(A), op(B) and split-k (the
// product's configurations); otherwise N,N only, data-parallel (the lab's
// other configurations: a ninth of the instantiations).
template <class P, bool OPS = true>
WarpTiledKernels warp_tiled_kernels() {
  void (*aat)(const GemmCall&) = nullptr;
  if constexpr (P::BM == P::BN) aat = run_warp_tiled_aat<P>;
  if constexpr (OPS)
    return {P::BM, P::BN, P::BK, run_warp_tiled_ab<P>, aat, warp_tiled_resident_blocks<P>, run_warp_tiled_ab_split<P>};
  else return {P::BM, P::BN, P::BK, run_warp_tiled_ab_nn<P>, aat, warp_tiled_resident_blocks<P>, nullptr};
}

}  // namespace tessera::gemm_impl::dev
