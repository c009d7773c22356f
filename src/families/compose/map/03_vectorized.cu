// Map step 3 — tessera's map: 16-byte vectors, several in flight.
//
// What it changes over step 2: each thread handles VECS 16-byte vectors of a
// tile (BLOCK_THREADS * VECS vectors, striped so each warp instruction reads
// 512 contiguous bytes), issuing all VECS loads before the first use; stores
// are 16-byte vectors too when the output has the input's alignment modulo 16
// (element stores otherwise). Tiles are aligned to 16 bytes whatever the
// input pointer (gpu::AlignedTiles): only the first and last tile are read
// element by element. Loads and stores per byte drop 4x (4-byte types) and
// each block does 4096 elements instead of 256.
//
// Bottleneck: DRAM bandwidth alone (read n, write n). Expected: the copy
// bandwidth (95-100% of the measured cudaMemcpy rate, H100), at least
// cub::DeviceTransform.
#include <cuda_runtime.h>

#include <cstdint>

#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/aligned_tiles.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"

namespace tessera::compose_impl {

namespace {

// 256 threads x 4 vectors: 4 x 16 B in flight per thread (the reduce
// single_pass sweep on H100: UNROLL 4 was best), a 16 KiB tile per block.
constexpr int BLOCK_THREADS = 256;
constexpr int VECS = 4;

template <class T>
constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK_THREADS) * VECS * gpu::VEC16<T>;

// No __restrict__: transform may run in place (each element is read before
// the same thread writes it; threads touch disjoint elements).
template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void map_vectorized_kernel(const T* in, T* out, gpu::AlignedTiles tiles,
                                                                       MapFn fn, bool vec_in, bool vec_out) {
  constexpr int VEC = gpu::VEC16<T>;
  const std::size_t b = blockIdx.x;
  if (vec_in && tiles.full(b)) {
    T x[VECS][VEC];
    gpu::load_striped<BLOCK_THREADS, VECS>(in - tiles.pad + b * tiles.tile, x);  // 16-byte aligned
#pragma unroll
    for (int k = 0; k < VECS; ++k)
#pragma unroll
      for (int j = 0; j < VEC; ++j) x[k][j] = map_apply(fn, x[k][j]);
    gpu::store_striped<BLOCK_THREADS, VECS>(out - tiles.pad + b * tiles.tile, x, vec_out);
    return;
  }
  // First or last tile: element by element.
  gpu::for_each_tile_element<BLOCK_THREADS, VECS, VEC>(tiles, b,
                                                      [&](std::size_t i) { out[i] = map_apply(fn, in[i]); });
}

}  // namespace

void run_map_vectorized(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  dispatch_map_type(call.spec.dtype, [&]<class T>() {
    const T* in = static_cast<const T*>(call.in);
    T* out = static_cast<T*>(call.out);
    const gpu::AlignedTiles tiles = gpu::aligned_tiles(in, n, TILE<T>);
    const bool vec_in = gpu::vector_ok(in);
    const bool vec_out = gpu::same_alignment16(in, out);
    const unsigned grid = gpu::checked_grid(tiles.count, "map_vectorized_kernel", n);
    detail::launch("map_vectorized_kernel", map_vectorized_kernel<T>, dim3(grid), dim3(BLOCK_THREADS), 0, call.stream,
                   n, in, out, tiles, call.spec.fn, vec_in, vec_out);
  });
}
std::size_t ws_map_vectorized(const Spec&) { return 0; }
bool supports_map_vectorized(const Spec& spec) { return spec.family == Family::map && family_supports(spec); }

}  // namespace tessera::compose_impl
