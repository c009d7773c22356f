// The tile kernel of tessera's rungs (steps 5 and 6): a block scans one tile
// of one row (TilePolicy: BLOCK threads x ITEMS samples) in every direction,
// all on chip:
//   1. cp.async copies the tile's samples into shared memory (16-byte body,
//      scalar head and tail: any pitch, any alignment; tile_io.cuh);
//   2. each thread takes ITEMS consecutive samples into registers (float4
//      reads, conflict-free) and scans them in the accumulator;
//   3. block scans (one barrier each) give each thread its prefix and, for
//      forward_backward, the suffix of the forward values, which never leave
//      the accumulator (no rounding to float between the passes);
//   4. the outputs are staged in the same shared buffer at the output row's
//      alignment and stored as float4s.
// CARRY = false: the tile is the whole row (the fused rung). CARRY = true:
// `carries` holds, per tile, what the rest of the row contributes (the
// multi-tile rung computes it first): [2t] the forward carry (sum of the
// forward pass's inputs before the tile), [2t + 1] the backward carry (sum of
// the backward pass's inputs after the tile: samples for backward, forward
// values for forward_backward).
//
// Tiles are handed out grid-stride (tile t = row t / T, tile t % T of it),
// 64-bit indices throughout. In place is safe: a tile's samples are all in
// shared memory (barrier) before any of its outputs is stored, and tiles are
// disjoint.
#pragma once

#include <cuda_pipeline_primitives.h>

#include <type_traits>

#include "families/batched_scan/common.cuh"
#include "families/batched_scan/cuda_rungs.hpp"
#include "families/batched_scan/scan_items.cuh"
#include "families/batched_scan/tile_io.cuh"

namespace tessera::batched_scan_impl::gpu_detail {

constexpr int TILE_BLOCK = TilePolicy::BLOCK;
constexpr int TILE_ITEMS = TilePolicy::ITEMS;
constexpr long long TILE_SAMPLES = static_cast<long long>(TilePolicy::TILE);

// Where tile k of a row lies: slots [e0, e0 + TILE) with row + e0 16-byte
// aligned, and the row's samples [lo, hi) in it (empty when lo >= hi).
struct TileSpan {
  long long e0, lo, hi;
};

__device__ __forceinline__ TileSpan tile_span(const float* row, long long k, long long len) {
  TileSpan s;
  s.e0 = k * TILE_SAMPLES - misalign4(row);
  s.lo = s.e0 > 0 ? s.e0 : 0;
  s.hi = s.e0 + TILE_SAMPLES < len ? s.e0 + TILE_SAMPLES : len;
  return s;
}

// Copies the tile into `buf` and gives each thread its items and the valid
// range [jlo, jhi) of them. Ends with a barrier after every thread has read
// `buf`: the caller may overwrite it.
__device__ __forceinline__ void load_tile_items(float* buf, const float* row, const TileSpan& s,
                                                float (&x)[TILE_ITEMS], int& jlo, int& jhi) {
  __syncthreads();  // the previous tile's stores are done reading buf
  tile_load_async<TILE_BLOCK>(buf, row, s.e0, s.lo, s.hi);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();  // every thread's copies are visible
  read_items<TILE_ITEMS>(buf, x);
  const long long first = s.e0 + static_cast<long long>(threadIdx.x) * TILE_ITEMS;
  jlo = clamp_items(s.lo - first, TILE_ITEMS);
  jhi = clamp_items(s.hi - first, TILE_ITEMS);
  __syncthreads();  // buf fully read
}

// scan_tile's carry functors for tile t: with CARRY, carries[2t + SLOT]
// (SLOT 0: forward, 1: backward; see the file comment); otherwise the
// identity (the tile is the whole row).
template <class R, bool CARRY, int SLOT>
struct TileCarry {
  const typename R::acc_t* carries;
  std::size_t t;
  __device__ __forceinline__ typename R::acc_t operator()(typename R::acc_t) const {
    if constexpr (CARRY) return carries[2 * t + SLOT];
    else return R::identity();
  }
};

// MIN_BLOCKS: the occupancy target handed to ptxas (__launch_bounds__'s
// second argument). 1 lets the 8-byte accumulators take ~124 registers (one
// 384-thread block per SM: ~60% of copy on the H100); 2 caps them at 85 so
// two tiles overlap their load, scan and store phases on each SM.
template <class R, bool CARRY, int MIN_BLOCKS = 1>
__global__ __launch_bounds__(TilePolicy::BLOCK, MIN_BLOCKS) void batched_scan_tile_kernel(
    const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, std::size_t rows, std::size_t len,
    std::size_t tiles_per_row, ScanDirection dir, bool exclusive, const typename R::acc_t* carries) {
  using acc_t = typename R::acc_t;
  __shared__ __align__(16) float buf[TilePolicy::TILE + 4];  // + 4: the output staging shift
  __shared__ acc_t scratch[TILE_BLOCK / 32];
  const std::size_t tiles = rows * tiles_per_row;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t row = t / tiles_per_row;
    const auto k = static_cast<long long>(t - row * tiles_per_row);
    const float* x_row = in + row * in_pitch;
    float* y_row = out + row * out_pitch;
    const TileSpan s = tile_span(x_row, k, static_cast<long long>(len));
    float x[TILE_ITEMS];
    int jlo, jhi;
    load_tile_items(buf, x_row, s, x, jlo, jhi);
    float y[TILE_ITEMS];
    scan_tile<R, TILE_ITEMS, TILE_BLOCK>(x, y, jlo, jhi, dir, exclusive, scratch, TileCarry<R, CARRY, 0>{carries, t},
                                         TileCarry<R, CARRY, 1>{carries, t});
    const int c = output_shift(y_row, s.e0);
    write_items<TILE_ITEMS>(buf, y, c);
    __syncthreads();  // staged outputs visible
    tile_store<TILE_BLOCK>(buf, y_row, s.e0, c, s.lo, s.hi);
  }
}

// Launches the tile kernel over rows x T tiles (grid capped at what the GPU
// holds at once; the kernel loops over the rest).
template <class R, bool CARRY, int MIN_BLOCKS = 1>
void launch_tile_kernel(const ScanCall& call, std::size_t T, const typename R::acc_t* carries, const char* name) {
  static std::atomic<int> occupancy{0};
  const ScanSpec& s = call.spec;
  auto kernel = batched_scan_tile_kernel<R, CARRY, MIN_BLOCKS>;
  const int per_sm = prepare_kernel(kernel, TILE_BLOCK, 0, occupancy);
  const std::size_t tiles = s.rows * T;
  const std::size_t cap = static_cast<std::size_t>(gpu::sm_count()) * static_cast<std::size_t>(per_sm);
  const unsigned grid = grid_of(tiles < cap ? tiles : cap, name, s);
  detail::launch(name, kernel, dim3(grid), dim3(TILE_BLOCK), 0, call.stream, s.rows * s.len, call.in, s.in_pitch,
                 call.out, s.out_pitch, s.rows, s.len, T, s.direction, s.exclusive, carries);
}


// Resident blocks per SM asked of ptxas, per accumulator (sm_90, CUDA 12,
// -DTESSERA_PTXAS_VERBOSE=ON, the fused kernel; 06_multi_tile.cu lists its
// kernels):
// - float: 3 -> 56 registers, no spill (4 -> 40 registers, 20 bytes spilled);
//   3 x 43 KB shared memory fits the SM's 228 KB;
// - Kahan, double-float: 2 -> 80 registers, no spill (3 spills ~1 KB);
// - double: 1 (2 spills 328 bytes: left as fused_one_pass until measured).
template <class R>
constexpr int occupancy_blocks() {
  if constexpr (std::is_same_v<typename R::acc_t, float>) return 3;
  else if constexpr (std::is_same_v<typename R::acc_t, double>) return 1;
  else return 2;
}
static_assert(occupancy_blocks<PlainSum<float, float>>() * TilePolicy::BLOCK <= 2048, "threads per SM");

}  // namespace tessera::batched_scan_impl::gpu_detail
