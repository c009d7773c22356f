// Lab rows vec16_swizzle and vec16_grouped (step 7, tuning) — 16-byte rows
// with a swizzled shared tile.
//
// What it changes over the padded tile: every global access is a 16-byte
// vector (4 floats / 2 doubles), on both sides, so a warp instruction moves
// 512 bytes instead of 128 and each thread has 4 x 16 bytes in flight with
// a quarter of the load/store instructions. A padded tile cannot hold 16-byte
// vectors (a +1-element pad breaks their alignment), so the tile is
// swizzled instead: chunk (16 bytes) c of tile row r is stored at chunk
// position c ^ ((r / V) % 8), V = words per chunk. The tile is TR x TC input
// elements, 16 KiB: floats 64 x 64, doubles 32 x 64.
//
//   load   thread q (of 256, 4 chunks each) reads chunk q % (TC/V) of tile
//          row q / (TC/V): a warp reads 2 rows x 256 bytes (floats) or 1 row
//          x 512 bytes (doubles), whole lines; it stores 16-byte chunks, 8
//          per 128-byte wavefront, and the XOR with a per-row constant below
//          8 only permutes each aligned group of 8 chunks: no conflict.
//   store  output row b (= input column), chunk rv (V consecutive input
//          rows): lanes take rv_lo = lane % 8 and 4 consecutive b; each
//          gathers its V words with V scalar shared loads from rows rv*V + e
//          and writes one 16-byte chunk. The 8 lanes with one b read from
//          chunk positions (b / V) ^ rv_lo: 8 distinct bank groups, and the
//          4 b's share a chunk (floats) or pair up per half warp (doubles),
//          so every shared load is one wavefront. A warp writes 4 output
//          rows x 128 bytes, whole lines.
//
// The 16-byte path needs both pointers 16-byte aligned and both pitches
// multiples of 16 bytes (vec16_path); calls that fail that (odd column
// counts without a pitch, offset pointers) run the padded 32 x 32 tile of
// unroll4 in the same tile order instead. Edge tiles (partly outside the
// matrix) go element by element through the same swizzled tile.
//
// Two variants: vec16_swizzle (row-major tile order) and vec16_grouped (the
// grouped order of grouped_order.cuh).
//
// Bottleneck: DRAM only; shared memory and issue slots are far from
// saturated. Expected: 92-97% of copy bandwidth on 8192 x 8192 floats, at
// least cublasSgeam. Measured (H100, docs/results/transpose-h100-2026-11-23c
// .json): 92.3 % (0.99x cublasSgeam) on float 8192^2, 1.03x on 65536 x 1024,
// but 0.92x on 65537 x 1023, whose odd rows take the scalar fallback; it
// was the API's default for one run (8eb3089) until tile64_64x8 replaced it
// (361c7f6). ~17 MiB requested at once per device (1056 blocks x 16 KiB)
// against tile64_64x8's ~8 MiB: more requests in flight only scatter DRAM
// rows.
#include <cstdint>

#include "families/transpose/tile.cuh"
#include "transpose/grouped_order.cuh"
#include "transpose/lab_rungs.hpp"
#include "transpose/vec16_tile.cuh"

namespace tessera::transpose_impl {

namespace {

using gpu::CacheHint;
using gpu::Grid2D;

template <class W, class ORDER>
__global__ __launch_bounds__(gpu::Vec16Tile<W>::THREADS) void transpose_vec16_kernel(const W* __restrict__ in,
                                                                                     W* __restrict__ out, Grid2D g) {
  using T = gpu::Vec16Tile<W>;
  __shared__ alignas(16) W tile[T::TR * T::TC];

  const gpu::TileIndex t = ORDER::tile_of(blockIdx.x, g.tiles_x, g.tiles_y);
  const std::size_t row0 = static_cast<std::size_t>(t.y) * T::TR;
  const std::size_t col0 = static_cast<std::size_t>(t.x) * T::TC;
  const int tid = static_cast<int>(threadIdx.x);

  if (gpu::interior<W>(g, row0, col0)) {  // block-uniform: the barrier below is safe
    gpu::Chunk<W> v[T::PER_THREAD];
    gpu::load_chunks<CacheHint::normal>(in, g, row0, col0, tid, v);
    gpu::stash_chunks<W>(tile, tid, v);
    __syncthreads();
    gpu::write_chunks<CacheHint::normal>(tile, out, g, row0, col0, tid);
  } else {
    gpu::load_edge(in, tile, g, row0, col0, tid);
    __syncthreads();
    gpu::write_edge(tile, out, g, row0, col0, tid);
  }
}

// The fallback: unroll4's padded tile in the same tile order.
template <class ORDER>
using FallbackTile = gpu::TilePolicy<32, 8, 1, ORDER>;

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class ORDER>
void run_vec16(const char* kernel, const char* fallback, const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  if (!vec16_path(call)) {
    gpu::run_tile<FallbackTile<ORDER>>(fallback, call);
    return;
  }
  gpu::with_word(s, kernel, [&]<class W>() {
    using T = gpu::Vec16Tile<W>;
    const Grid2D g = gpu::make_grid(s, T::TR, T::TC, kernel);
    detail::launch(kernel, transpose_vec16_kernel<W, ORDER>, dim3(gpu::blocks_of(g)), dim3(T::THREADS), 0,
                   call.stream, s.rows * s.cols, static_cast<const W*>(call.in), static_cast<W*>(call.out), g);
  });
}

}  // namespace

bool vec16_path(const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (!word_sized(s.dtype)) return false;
  const std::size_t words = 16 / size_of(s.dtype);
  return aligned16(call.in) && aligned16(call.out) && s.ld_in % words == 0 && s.ld_out % words == 0;
}

void run_vec16_swizzle(const TransposeCall& call) {
  run_vec16<gpu::RowMajorOrder>("transpose_vec16_kernel<row_major>", "transpose_tile_kernel<vec16 fallback>", call);
}

void run_vec16_grouped(const TransposeCall& call) {
  run_vec16<gpu::GroupedOrder>("transpose_vec16_kernel<grouped>", "transpose_tile_kernel<vec16_grouped fallback>",
                                call);
}

}  // namespace tessera::transpose_impl
