// Step 7 (tessera) — 16-byte rows with a swizzled shared tile.
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
// grouped order of 07_grouped_order.cu).
//
// Bottleneck: DRAM only; shared memory and issue slots are far from
// saturated. Expected: 92-97% of copy bandwidth on 8192 x 8192 floats, at
// least cublasSgeam (94% on the H100 in earlier measurements). A
// prediction: the bench decides.
#include <cstdint>

#include "cuda/common/vector_load.cuh"
#include "cuda/transpose/rungs.hpp"
#include "cuda/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {

using gpu::Grid2D;
using gpu::TileOrder;

template <class W>
struct Vec16Tile {
  static constexpr int V = 16 / static_cast<int>(sizeof(W));   // words per 16-byte chunk
  static constexpr int TR = sizeof(W) == 4 ? 64 : 32;          // input rows per tile: 16 chunks per output row
  static constexpr int TC = 64;                                // input columns per tile
  static constexpr int THREADS = 256;                          // 8 blocks x 16 KiB fill 128 KiB of an SM
  static constexpr int CHUNKS_PER_IN_ROW = TC / V;
  static constexpr int CHUNKS_PER_OUT_ROW = TR / V;
  static constexpr int CHUNKS = TR * TC / V;
  static constexpr int PER_THREAD = CHUNKS / THREADS;          // 16-byte loads in flight per thread
  static constexpr int SWIZZLE = 8;                            // chunk positions per 128 bytes
  static_assert(CHUNKS_PER_IN_ROW % SWIZZLE == 0, "the XOR must stay inside aligned groups of 8 chunks");
  static_assert(CHUNKS_PER_OUT_ROW % SWIZZLE == 0, "a warp's store needs 8 chunks per output row");
  static_assert((TC * sizeof(W)) % 128 == 0, "tile rows must start on a 128-byte bank boundary");
  static_assert(CHUNKS % THREADS == 0 && THREADS % 32 == 0, "whole chunks per thread, whole warps");
  static_assert(TC % 4 == 0, "a warp's 4 output rows must share one chunk column group");
};

// Word index of element (r, c) in the swizzled tile.
template <class W>
__device__ __forceinline__ int swizzled(int r, int c) {
  using T = Vec16Tile<W>;
  return r * T::TC + (((c / T::V) ^ ((r / T::V) % T::SWIZZLE)) * T::V) + c % T::V;
}

template <class W>
using Chunk = typename tessera::gpu::Vec16<W>::type;  // int4 or longlong2

template <class W>
__device__ __forceinline__ Chunk<W> pack(const W (&w)[Vec16Tile<W>::V]) {
  if constexpr (Vec16Tile<W>::V == 4) return make_int4(w[0], w[1], w[2], w[3]);
  else return make_longlong2(w[0], w[1]);
}

// One 16-byte shared-memory store. (nvcc 13.0 split the plain assignment
// `*reinterpret_cast<int4*>(p) = v` into four 4-byte stores here, for some
// of the unrolled iterations: four wavefronts where one is enough.)
__device__ __forceinline__ void store_shared16(void* p, int4 v) {
  const auto a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
__device__ __forceinline__ void store_shared16(void* p, longlong2 v) {
  const auto a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("st.shared.v2.b64 [%0], {%1, %2};" ::"r"(a), "l"(v.x), "l"(v.y) : "memory");
}

template <class W, TileOrder ORDER>
__global__ __launch_bounds__(Vec16Tile<W>::THREADS) void transpose_vec16_kernel(const W* __restrict__ in,
                                                                                W* __restrict__ out, Grid2D g) {
  using T = Vec16Tile<W>;
  __shared__ alignas(16) W tile[T::TR * T::TC];

  const gpu::TileIndex t = gpu::tile_of<ORDER>(blockIdx.x, g.tiles_x, g.tiles_y);
  const std::size_t row0 = static_cast<std::size_t>(t.y) * T::TR;
  const std::size_t col0 = static_cast<std::size_t>(t.x) * T::TC;
  const int tid = static_cast<int>(threadIdx.x);

  if (row0 + T::TR <= g.rows && col0 + T::TC <= g.cols) {  // block-uniform: the barrier below is safe
    Chunk<W> v[T::PER_THREAD];
#pragma unroll
    for (int k = 0; k < T::PER_THREAD; ++k) {
      const int q = tid + k * T::THREADS;
      const int r = q / T::CHUNKS_PER_IN_ROW, c = q % T::CHUNKS_PER_IN_ROW;
      v[k] = *reinterpret_cast<const Chunk<W>*>(in + (row0 + r) * g.ld_in + col0 + c * T::V);
    }
#pragma unroll
    for (int k = 0; k < T::PER_THREAD; ++k) {
      const int q = tid + k * T::THREADS;
      const int r = q / T::CHUNKS_PER_IN_ROW, c = q % T::CHUNKS_PER_IN_ROW;
      store_shared16(&tile[r * T::TC + (c ^ ((r / T::V) % T::SWIZZLE)) * T::V], v[k]);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T::PER_THREAD; ++k) {
      const int q = tid + k * T::THREADS;
      const int rv_lo = q % T::SWIZZLE, rest = q / T::SWIZZLE;
      const int b = rest % T::TC;                          // output row in the tile (an input column)
      const int rv = (rest / T::TC) * T::SWIZZLE + rv_lo;  // output chunk in that row
      W w[T::V];
#pragma unroll
      for (int e = 0; e < T::V; ++e) w[e] = tile[swizzled<W>(rv * T::V + e, b)];
      // One 16-byte global store (__stwb: st.global.wb.v4/v2, the default
      // write-back policy; a plain assignment was split like the one above).
      __stwb(reinterpret_cast<Chunk<W>*>(out + (col0 + b) * g.ld_out + row0 + rv * T::V), pack<W>(w));
    }
  } else {
    // Edge tile: element by element through the same layout, guarded.
    for (int e = tid; e < T::TR * T::TC; e += T::THREADS) {
      const int r = e / T::TC, c = e % T::TC;
      if (row0 + r < g.rows && col0 + c < g.cols) tile[swizzled<W>(r, c)] = in[(row0 + r) * g.ld_in + col0 + c];
    }
    __syncthreads();
    for (int e = tid; e < T::TR * T::TC; e += T::THREADS) {
      const int b = e / T::TR, a = e % T::TR;
      if (col0 + b < g.cols && row0 + a < g.rows) out[(col0 + b) * g.ld_out + row0 + a] = tile[swizzled<W>(a, b)];
    }
  }
}

// The fallback: unroll4's padded tile in the same tile order.
template <TileOrder ORDER>
using FallbackTile = gpu::TilePolicy<32, 8, 1, ORDER>;

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <TileOrder ORDER>
void run_vec16(const char* kernel, const char* fallback, const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  if (!vec16_path(call)) {
    gpu::run_tile<FallbackTile<ORDER>>(fallback, call);
    return;
  }
  gpu::with_word(s, kernel, [&]<class W>() {
    using T = Vec16Tile<W>;
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
  run_vec16<TileOrder::row_major>("transpose_vec16_kernel<row_major>", "transpose_tile_kernel<vec16 fallback>", call);
}

void run_vec16_grouped(const TransposeCall& call) {
  run_vec16<TileOrder::grouped>("transpose_vec16_kernel<grouped>", "transpose_tile_kernel<vec16_grouped fallback>",
                                call);
}

}  // namespace tessera::transpose_impl
