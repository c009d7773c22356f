// The kernels of csr_nnz_split (08_csr_nnz_split.cu describes the
// algorithm), shared with batched_nnz_split (10_batched_nnz_split.cu): the
// tile kernel reads x through an `Xs` source, so one kernel serves a single
// matrix (PlainX: x[col]) and a batch (BatchX: each nonzero's x is its own
// matrix's). An Xs provides start_tile(begin, end), called once per tile
// before the loads, and load(k, col), the x value nonzero k multiplies.
#pragma once

#include <cstdint>

#include "families/spmv/common.cuh"
#include "families/spmv/nnz_split.hpp"

namespace tessera::spmv_impl {

namespace nnz_split_gpu {

using nnz_split::TILE;                // 1024 nonzeros a block
constexpr int ITEMS = TILE / gpu::BLOCK_THREADS;  // nonzeros a thread loads: one 16-byte load of columns
static_assert(ITEMS == 4, "the vector loads take 4 columns (one int4) a thread");
constexpr int SHORT_SEGMENT = 32;                 // longer segments are summed by a warp
constexpr int WARPS = gpu::BLOCK_THREADS / 32;
constexpr int MAX_LONG = TILE / (SHORT_SEGMENT + 1) + 1;  // segments longer than SHORT_SEGMENT a tile, at most
static_assert(MAX_LONG >= WARPS, "the pieces of the long segments need a partial slot each");

template <class T>
struct Cut {
  T* carry;                // the tile's tail: the part of the row that goes on past the tile
  T* head;                 // the tile's first owned row's part, when that row began before the tile
  std::int64_t* head_row;  // that row, or -1
  std::int64_t* first;     // tiles + 1: tile t owns rows [first[t], first[t + 1])
};

template <class Unused = void>
__global__ void nnz_split_bounds_kernel(const std::int64_t* __restrict__ off, std::int64_t rows, std::int64_t tiles,
                                        std::int64_t* __restrict__ first) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t <= tiles) first[t] = nnz_split::first_row(off, rows, tiles, t);
}

template <class T, bool VECTOR, class Xs>
__device__ void load_products(T* product, std::int64_t begin, int count, const std::int32_t* __restrict__ col,
                              const T* __restrict__ val, const Xs& x) {
  if (VECTOR && count == TILE) {
    const int i = threadIdx.x * ITEMS;
    const int4 c = __ldcs(reinterpret_cast<const int4*>(col + begin + i));
    if constexpr (sizeof(T) == 4) {
      const float4 v = __ldcs(reinterpret_cast<const float4*>(val + begin + i));
      reinterpret_cast<float4*>(product)[threadIdx.x] =
          make_float4(v.x * x.load(begin + i, c.x), v.y * x.load(begin + i + 1, c.y), v.z * x.load(begin + i + 2, c.z),
                      v.w * x.load(begin + i + 3, c.w));
    } else {
      const double2 v0 = __ldcs(reinterpret_cast<const double2*>(val + begin + i));
      const double2 v1 = __ldcs(reinterpret_cast<const double2*>(val + begin + i + 2));
      reinterpret_cast<double2*>(product)[2 * threadIdx.x] =
          make_double2(v0.x * x.load(begin + i, c.x), v0.y * x.load(begin + i + 1, c.y));
      reinterpret_cast<double2*>(product)[2 * threadIdx.x + 1] =
          make_double2(v1.x * x.load(begin + i + 2, c.z), v1.y * x.load(begin + i + 3, c.w));
    }
  } else {
    for (int i = threadIdx.x; i < count; i += gpu::BLOCK_THREADS)
      product[i] = __ldcs(val + begin + i) * x.load(begin + i, __ldcs(col + begin + i));
  }
}

template <class T, bool VECTOR, class Xs>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void nnz_split_tiles_kernel(
    std::int64_t rows, std::int64_t nnz, const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
    const T* __restrict__ val, Xs x, T* __restrict__ y, T alpha, T beta, Cut<T> cut) {
  __shared__ __align__(16) T product[TILE];
  __shared__ std::int64_t long_segments[MAX_LONG];
  __shared__ int long_count;
  const std::int64_t t = blockIdx.x;
  if (threadIdx.x == 0) {
    long_count = 0;
    cut.head_row[t] = -1;
  }
  const nnz_split::Tile tile = nnz_split::tile_from(nnz, t, cut.first[t], cut.first[t + 1]);
  const std::int64_t begin = t * TILE;
  const int count = int(min(std::int64_t(TILE), nnz - begin));
  if (count > 0) x.start_tile(begin, begin + count);
  load_products<T, VECTOR>(product, begin, count, col, val, x);
  __syncthreads();

  auto finish = [&](std::int64_t s, T sum) {
    switch (nnz_split::destination(tile, off, s)) {
      case nnz_split::Destination::carry: cut.carry[t] = sum; break;
      case nnz_split::Destination::head:
        cut.head[t] = sum;
        cut.head_row[t] = tile.lo + s;
        break;
      case nnz_split::Destination::y: gpu::write_row(y, tile.lo + s, sum, alpha, beta); break;
    }
  };

  const std::int64_t segments = tile.segments();
  for (std::int64_t s = threadIdx.x; s < segments; s += gpu::BLOCK_THREADS) {
    std::int64_t b, e;
    nnz_split::segment_bounds(tile, off, s, b, e);
    if (e - b > SHORT_SEGMENT) {
      long_segments[atomicAdd(&long_count, 1)] = s;  // the list's order varies; each sum's does not
      continue;
    }
    T sum = 0;
    for (std::int64_t k = b; k < e; ++k) sum += product[k - tile.begin];
    finish(s, sum);
  }
  __syncthreads();
  // Long segments: split into `parts` contiguous pieces so that every warp
  // works when there are fewer long segments than warps (a tile inside one
  // huge row has a single segment of TILE entries); the pieces' partials
  // are added in piece order. `parts` depends only on how many long
  // segments the tile has, so each sum's order is fixed.
  __shared__ T partial[MAX_LONG];
  const int n_long = long_count;
  const int parts = n_long > 0 && n_long < WARPS ? WARPS / n_long : 1;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int w = warp; w < n_long * parts; w += WARPS) {
    const int i = w / parts, p = w % parts;
    std::int64_t b, e;
    nnz_split::segment_bounds(tile, off, long_segments[i], b, e);
    const std::int64_t from = b + (e - b) * p / parts, to = b + (e - b) * (p + 1) / parts;
    T sum = 0;
    for (std::int64_t k = from + lane; k < to; k += 32) sum += product[k - tile.begin];
#pragma unroll
    for (int width = 16; width > 0; width /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, width);
    if (lane == 0) partial[w] = sum;
  }
  __syncthreads();
  if (threadIdx.x < n_long) {
    T sum = 0;
    for (int p = 0; p < parts; ++p) sum += partial[threadIdx.x * parts + p];
    finish(long_segments[threadIdx.x], sum);
  }
}

// One thread per tile whose first owned row began before it: the row's
// head plus the carries of the tiles it crossed, nearest first.
template <class T>
__global__ void nnz_split_fixup_kernel(std::int64_t tiles, const std::int64_t* __restrict__ off, T* __restrict__ y,
                                       T alpha, T beta, Cut<T> cut) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t >= tiles) return;
  const std::int64_t r = cut.head_row[t];
  if (r < 0) return;
  T sum = cut.head[t];
  for (std::int64_t p = t - 1; p >= nnz_split::first_carry_tile(off, r); --p) sum += cut.carry[p];
  gpu::write_row(y, r, sum, alpha, beta);
}

// A single matrix: x indexed by the column alone.
template <class T>
struct PlainX {
  const T* x;
  __device__ void start_tile(std::int64_t, std::int64_t) {}
  __device__ __forceinline__ T load(std::int64_t, std::int32_t c) const { return gpu::load_x(x, c); }
};

inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

// Workspace of the cut (carries, heads, head rows, first rows) for `tiles`.
inline std::size_t cut_bytes(std::int64_t tiles, std::size_t value_bytes) {
  return 2 * align256(std::size_t(tiles) * value_bytes) + align256(std::size_t(tiles) * 8) +
         align256(std::size_t(tiles + 1) * 8);
}

template <class T>
Cut<T> cut_in(void* workspace, std::int64_t tiles) {
  auto* base = static_cast<unsigned char*>(workspace);
  const std::size_t slot = align256(std::size_t(tiles) * sizeof(T));
  const std::size_t index_slot = align256(std::size_t(tiles) * 8);
  return {reinterpret_cast<T*>(base), reinterpret_cast<T*>(base + slot),
          reinterpret_cast<std::int64_t*>(base + 2 * slot),
          reinterpret_cast<std::int64_t*>(base + 2 * slot + index_slot)};
}

inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The three launches over a CSR whose row offsets `off` (rows + 1, from 0)
// cover nnz entries; the cut lives in `workspace` (cut_bytes).
template <class T, class Xs>
void launch_nnz_split(std::int64_t rows, std::int64_t nnz, const std::int64_t* off, const std::int32_t* col,
                      const T* val, Xs x, T* y, T alpha, T beta, void* workspace, cudaStream_t stream) {
  const std::int64_t tiles = nnz_split::tiles_of(nnz);
  const Cut<T> cut = cut_in<T>(workspace, tiles);
  detail::launch("spmv_nnz_split_bounds_kernel", nnz_split_bounds_kernel<>,
                 dim3(gpu::blocks_for(tiles + 1, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, stream,
                 std::size_t(tiles + 1), off, rows, tiles, cut.first);
  const bool vector = aligned16(val) && aligned16(col);
  const auto kernel = vector ? nnz_split_tiles_kernel<T, true, Xs> : nnz_split_tiles_kernel<T, false, Xs>;
  detail::launch("spmv_nnz_split_tiles_kernel", kernel, dim3(unsigned(tiles)), dim3(gpu::BLOCK_THREADS), 0, stream,
                 std::size_t(nnz), rows, nnz, off, col, val, x, y, alpha, beta, cut);
  detail::launch("spmv_nnz_split_fixup_kernel", nnz_split_fixup_kernel<T>,
                 dim3(gpu::blocks_for(tiles, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, stream,
                 std::size_t(tiles), tiles, off, y, alpha, beta, cut);
}

}  // namespace nnz_split_gpu

}  // namespace tessera::spmv_impl
