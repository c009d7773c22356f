// Adjacent difference step 4 — tessera's: 16-byte vectors, the left
// neighbour from the neighbouring lane, no shared memory.
//
// What it changes over step 3: each thread holds VECS 16-byte vectors
// (striped over the block, as map's vectorized rung: every warp load is 512
// contiguous bytes, all VECS loads in flight before the first use). Inside a
// vector the left neighbour is the previous register; for its first element
// it is the last element of lane - 1's vector (__shfl_up_sync), and lane 0
// loads that one element from global memory (the neighbouring warp just read
// its line: an L1/L2 hit). No shared memory, no barrier, one DRAM read of
// every element, 16-byte stores when the output has the input's alignment
// modulo 16. Tiles are 16-byte aligned whatever the input pointer; the first
// and last tile go element by element.
//
// Bottleneck: DRAM bandwidth alone (read n, write n). Expected: the copy
// bandwidth (95-100% of cudaMemcpy's rate on H100), at least
// cub::DeviceAdjacentDifference.
#include <cuda_runtime.h>

#include <cstdint>

#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/aligned_tiles.cuh"
#include "tessera/blocks/warp_scan.cuh"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"

namespace tessera::compose_impl {

namespace {

// map's vectorized tile: 256 threads x 4 vectors of 16 bytes.
constexpr int BLOCK_THREADS = 256;
constexpr int VECS = 4;
constexpr unsigned LANES = 32;

template <class T>
constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK_THREADS) * VECS * gpu::VEC16<T>;

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void adjdiff_vectorized_shuffle_kernel(const T* __restrict__ in,
                                                                                   absdiff_t<T>* __restrict__ out,
                                                                                   gpu::AlignedTiles tiles,
                                                                                   bool vec_in, bool vec_out) {
  using D = absdiff_t<T>;
  constexpr int VEC = gpu::VEC16<T>;
  const std::size_t b = blockIdx.x;
  const unsigned t = threadIdx.x;
  const unsigned lane = t % LANES;
  if (vec_in && tiles.full(b)) {  // block-uniform branch: every lane reaches the shuffles
    T x[VECS][VEC];
    gpu::load_striped<BLOCK_THREADS, VECS>(in - tiles.pad + b * tiles.tile, x);  // 16-byte aligned
    // Lane 0's left neighbours: the element before each of its vectors.
    T halo[VECS];
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      const std::size_t first = tiles.element(b, gpu::striped_slot<BLOCK_THREADS, VEC>(k, t, 0));
      halo[k] = lane == 0 && first > 0 ? in[first - 1] : T(0);
    }
    D d[VECS][VEC];
#pragma unroll
    for (int k = 0; k < VECS; ++k) {
      T left = gpu::shfl_up_any(x[k][VEC - 1], 1);
      if (lane == 0) left = halo[k];
      d[k][0] = absdiff(x[k][0], left);
#pragma unroll
      for (int j = 1; j < VEC; ++j) d[k][j] = absdiff(x[k][j], x[k][j - 1]);
    }
    gpu::store_striped<BLOCK_THREADS, VECS>(out - tiles.pad + b * tiles.tile, d, vec_out);
    return;
  }
  // First or last tile: element by element.
  gpu::for_each_tile_element<BLOCK_THREADS, VECS, VEC>(
      tiles, b, [&](std::size_t i) { out[i] = absdiff(in[i], i > 0 ? in[i - 1] : T(0)); });
}

}  // namespace

void run_adjdiff_vectorized(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  dispatch_map_type(call.spec.dtype, [&]<class T>() {
    using D = absdiff_t<T>;
    const T* in = static_cast<const T*>(call.in);
    D* out = static_cast<D*>(call.out);
    const gpu::AlignedTiles tiles = gpu::aligned_tiles(in, n, TILE<T>);
    const bool vec_in = gpu::vector_ok(in);
    const bool vec_out = gpu::same_alignment16(in, out);
    const unsigned grid = gpu::checked_grid(tiles.count, "adjdiff_vectorized_shuffle_kernel", n);
    detail::launch("adjdiff_vectorized_shuffle_kernel", adjdiff_vectorized_shuffle_kernel<T>, dim3(grid),
                   dim3(BLOCK_THREADS), 0, call.stream, n, in, out, tiles, vec_in, vec_out);
  });
}
std::size_t ws_adjdiff_vectorized(const Spec&) { return 0; }
bool supports_adjdiff_vectorized(const Spec& spec) {
  return spec.family == Family::adjacent_difference && family_supports(spec);
}

}  // namespace tessera::compose_impl
