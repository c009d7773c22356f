// SpMV step 8 — CSR nonzero split: tessera's load-balanced CSR. Tiles of
// TILE consecutive nonzeros, whatever rows they fall in, so every block does
// the same work and no row length can stall the grid (a 1e5-entry row is
// ~100 tiles spread over the GPU, not one thread's or one warp's loop).
//
// Per tile (one block):
//   - a first, short kernel finds every tile's first owned row by binary
//     search in the row offsets, all tiles at once (a search at the start of
//     each tile would put ~24 dependent loads before its first useful one):
//     a tile owns the rows whose end lies in (begin, end] (tile 0 also the
//     leading empty rows), so every row, empty ones included, is owned by
//     exactly one tile (nnz_split.hpp);
//   - the tile's products val[k] * x[col[k]] go to shared memory, values and
//     columns read with 16-byte vector loads marked streaming (__ldcs: read
//     once, they should not evict x from L2) and x through the read-only
//     path (__ldg);
//   - each owned row's part of the tile (a segment) is summed by one thread
//     when it has at most SHORT_SEGMENT entries, by one or more warps (lanes
//     strided, xor tree, pieces added in order) otherwise; so is the tile's
//     tail, the part of the next row that goes on past the tile (its carry);
//   - an owned row that began before the tile leaves its part in `head`; a
//     second kernel adds to it the carries of the tiles it crossed, nearest
//     first, and writes y.
// Deterministic: every sum has a fixed order (in the tile by position, the
// carries by tile), so the same bits come out every run. Bytes: values and
// columns once, row offsets once (plus a binary search a tile, cached), x,
// y once, and 2 values + 2 indices a tile of workspace (~1% at TILE 1024).
// Expected: the bandwidth of its bytes on every matrix shape.
#include <cstdint>

#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"
#include "families/spmv/nnz_split.hpp"

namespace tessera::spmv_impl {

namespace {

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

__global__ void nnz_split_bounds_kernel(const std::int64_t* __restrict__ off, std::int64_t rows, std::int64_t tiles,
                                        std::int64_t* __restrict__ first) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t <= tiles) first[t] = nnz_split::first_row(off, rows, tiles, t);
}

template <class T, bool VECTOR>
__device__ void load_products(T* product, std::int64_t begin, int count, const std::int32_t* __restrict__ col,
                              const T* __restrict__ val, const T* __restrict__ x) {
  if (VECTOR && count == TILE) {
    const int i = threadIdx.x * ITEMS;
    const int4 c = __ldcs(reinterpret_cast<const int4*>(col + begin + i));
    if constexpr (sizeof(T) == 4) {
      const float4 v = __ldcs(reinterpret_cast<const float4*>(val + begin + i));
      reinterpret_cast<float4*>(product)[threadIdx.x] =
          make_float4(v.x * gpu::load_x(x, c.x), v.y * gpu::load_x(x, c.y), v.z * gpu::load_x(x, c.z),
                      v.w * gpu::load_x(x, c.w));
    } else {
      const double2 v0 = __ldcs(reinterpret_cast<const double2*>(val + begin + i));
      const double2 v1 = __ldcs(reinterpret_cast<const double2*>(val + begin + i + 2));
      reinterpret_cast<double2*>(product)[2 * threadIdx.x] =
          make_double2(v0.x * gpu::load_x(x, c.x), v0.y * gpu::load_x(x, c.y));
      reinterpret_cast<double2*>(product)[2 * threadIdx.x + 1] =
          make_double2(v1.x * gpu::load_x(x, c.z), v1.y * gpu::load_x(x, c.w));
    }
  } else {
    for (int i = threadIdx.x; i < count; i += gpu::BLOCK_THREADS)
      product[i] = __ldcs(val + begin + i) * gpu::load_x(x, __ldcs(col + begin + i));
  }
}

template <class T, bool VECTOR>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void nnz_split_tiles_kernel(
    std::int64_t rows, std::int64_t nnz, const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
    const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta, Cut<T> cut) {
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

std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

void run_csr_nnz_split(const SpmvCall& c) {
  if (c.spec.rows == 0) return;
  gpu::dispatch_value(c.spec.dtype, "csr_nnz_split", [&]<class T>() {
    const std::int64_t tiles = nnz_split::tiles_of(c.spec.nnz);
    auto* base = static_cast<unsigned char*>(c.workspace);
    const std::size_t slot = align256(std::size_t(tiles) * sizeof(T));
    const std::size_t index_slot = align256(std::size_t(tiles) * 8);
    Cut<T> cut{reinterpret_cast<T*>(base), reinterpret_cast<T*>(base + slot),
               reinterpret_cast<std::int64_t*>(base + 2 * slot),
               reinterpret_cast<std::int64_t*>(base + 2 * slot + index_slot)};
    detail::launch("spmv_nnz_split_bounds_kernel", nnz_split_bounds_kernel, dim3(gpu::blocks_for(tiles + 1, gpu::BLOCK_THREADS)),
                   dim3(gpu::BLOCK_THREADS), 0, c.stream, std::size_t(tiles + 1), c.a.row_offsets, c.spec.rows, tiles,
                   cut.first);
    const auto* val = static_cast<const T*>(c.a.values);
    const auto* x = static_cast<const T*>(c.x);
    auto* y = static_cast<T*>(c.y);
    const bool vector = aligned16(val) && aligned16(c.a.col_indices);
    const auto kernel = vector ? nnz_split_tiles_kernel<T, true> : nnz_split_tiles_kernel<T, false>;
    detail::launch("spmv_nnz_split_tiles_kernel", kernel, dim3(unsigned(tiles)), dim3(gpu::BLOCK_THREADS), 0,
                   c.stream, std::size_t(c.spec.nnz), c.spec.rows, c.spec.nnz, c.a.row_offsets, c.a.col_indices, val,
                   x, y, T(c.alpha), T(c.beta), cut);
    detail::launch("spmv_nnz_split_fixup_kernel", nnz_split_fixup_kernel<T>,
                   dim3(gpu::blocks_for(tiles, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, c.stream,
                   std::size_t(tiles), tiles, c.a.row_offsets, y, T(c.alpha), T(c.beta), cut);
  });
}
std::size_t ws_csr_nnz_split(const SpmvSpec& s) {
  const std::int64_t tiles = nnz_split::tiles_of(s.nnz);
  return 2 * align256(std::size_t(tiles) * value_bytes(s.dtype)) + align256(std::size_t(tiles) * 8) +
         align256(std::size_t(tiles + 1) * 8);
}
bool supports_csr_nnz_split(const SpmvSpec& s) { return gpu::csr_supports(s); }

}  // namespace tessera::spmv_impl
