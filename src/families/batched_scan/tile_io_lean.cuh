// tile_io.cuh's asynchronous tile load and staged tile store with the
// per-vector loop in 32-bit offsets and unrolled to its constant bound
// (LeanChainPolicy in pipelined_kernel.cuh: fused_pipelined_lazy_bulk's path
// below sm_90, the lab's fused_pipelined_two_chains_lean).
//
// tile_io.cuh walks the tile's float4s in a `long long` loop of run-time
// trip count: per float4 a 64-bit index update, a 64-bit compare, two 64-bit
// address computations (global and shared) and the branch, about 10-12
// instructions around one LDGSTS or one LDS + STG (~10% of the wide
// accumulators' issue slots in the SASS of the lab's
// fused_pipelined_two_chains). Here the row's global pointer and the shared
// slot of the body's first float4 are formed once; a tile spans TILE
// samples, so it holds at most TILE / 4 = BLOCK x ITEMS / 4 float4s and each
// thread at most ITEMS / 4 of them: the loop runs that constant count,
// unrolled, each float4 one predicated copy at a constant offset from the
// thread's first (an immediate in the instruction). Same samples, same order
// per thread, same bytes: only the address arithmetic differs.
// For rows of one tile (the fused rows, len <= FUSED_MAX_LEN): e0, lo and hi
// are ints (e0 in [-3, 0], lo and hi in [0, len]), so that a kernel keeps 3
// registers, not 6, of them live across its scan (double at 80 registers
// spills with the 64-bit ones).
#pragma once

#include "families/batched_scan/tile_io.cuh"

namespace tessera::batched_scan_impl::gpu_detail {

// split_aligned in ints (offsets within one fused row).
__device__ __forceinline__ void split_aligned_lean(const float* row, int lo, int hi, int& head_end, int& body_end) {
  if (hi <= lo) {
    head_end = body_end = lo;
    return;
  }
  const int head = (4 - misalign4(row + lo)) & 3;
  head_end = lo + head < hi ? lo + head : hi;
  body_end = head_end + ((hi - head_end) / 4) * 4;
}

// tile_load_async of the samples [lo, hi) of a one-tile row into
// smem[e - e0] (e0: the tile's first sample, row + e0 16-byte aligned);
// same contract (all BLOCK threads call it; no commit). BLOCK x ITEMS: the
// tile, so at most ITEMS / 4 float4s per thread.
template <int BLOCK, int ITEMS>
__device__ __forceinline__ void tile_load_async_lean(float* smem, const float* row, int e0, int lo, int hi) {
  static_assert(ITEMS % 4 == 0, "whole float4s per thread");
  int head_end, body_end;
  split_aligned_lean(row, lo, hi, head_end, body_end);
  const int tid = static_cast<int>(threadIdx.x);
  const int vectors = (body_end - head_end) / 4;  // <= BLOCK x ITEMS / 4
  if (tid < head_end - lo) __pipeline_memcpy_async(smem + (lo + tid - e0), row + (lo + tid), sizeof(float));
  // The thread's first float4 (formed only when it exists: within the row)
  // and its shared slot as a 32-bit shared-window address; the k-th float4
  // is 16 x k x BLOCK bytes further in both, an immediate of the LDGSTS.
  // cp.async.cg: as __pipeline_memcpy_async's 16-byte copies (L2 only).
  if (tid < vectors) {
    const float* g = row + head_end + 4 * tid;
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(smem + (head_end - e0) + 4 * tid));
#pragma unroll
    for (int k = 0; k < ITEMS / 4; ++k)
      if (tid + k * BLOCK < vectors)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d + 16u * k * BLOCK), "l"(g + 4 * k * BLOCK)
                     : "memory");
  }
  if (tid < hi - body_end)
    __pipeline_memcpy_async(smem + (body_end + tid - e0), row + (body_end + tid), sizeof(float));
}

// tile_store<BLOCK, true> (st.global.cs) of out_row[lo, hi) from
// smem[e - e0 + c], a one-tile row; same contract.
template <int BLOCK, int ITEMS>
__device__ __forceinline__ void tile_store_lean(const float* smem, float* out_row, int e0, int c, int lo, int hi) {
  static_assert(ITEMS % 4 == 0, "whole float4s per thread");
  int head_end, body_end;
  split_aligned_lean(out_row, lo, hi, head_end, body_end);
  const int tid = static_cast<int>(threadIdx.x);
  const int vectors = (body_end - head_end) / 4;
  const int shift = c - e0;  // slot = e + shift, within [0, TILE + 4)
  if (tid < head_end - lo) __stcs(out_row + (lo + tid), smem[lo + tid + shift]);
  if (tid < vectors) {  // the thread's first float4 and slot, then constant offsets (as the load)
    float4* g = reinterpret_cast<float4*>(out_row + head_end) + tid;
    const float4* src = reinterpret_cast<const float4*>(smem + (head_end + shift)) + tid;  // aligned: the shift
#pragma unroll
    for (int k = 0; k < ITEMS / 4; ++k)
      if (tid + k * BLOCK < vectors) __stcs(g + k * BLOCK, src[k * BLOCK]);
  }
  if (tid < hi - body_end) __stcs(out_row + (body_end + tid), smem[body_end + tid + shift]);
}

}  // namespace tessera::batched_scan_impl::gpu_detail
