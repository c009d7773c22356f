// What the CUDA rungs of the convolution ladders share: the geometry every
// kernel receives, the zero-ghost load, the flat tile numbering, and the
// launch of a rung in its 1D or 2D block shape.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "families/convolution/contract.hpp"
#include "families/convolution/tiles.hpp"
#include "tessera/blocks/launch.cuh"

namespace tessera::convolution_impl::gpu {

struct Geometry {
  std::int64_t width, height, pitch;
  int mask_w, mask_h, rx, ry;
  std::int64_t tiles_x;  // tiles along a row: blockIdx.x = tile_y * tiles_x + tile_x
};

inline Geometry geometry(const ConvSpec& s, std::size_t tile_x) {
  return {std::int64_t(s.width),  std::int64_t(s.height), std::int64_t(s.pitch), int(s.mask_w), int(s.mask_h),
          int(s.rx()),            int(s.ry()),            std::int64_t((s.width + tile_x - 1) / tile_x)};
}

// Blocks for tiles of tx x ty outputs; one flat grid dimension (2^31 - 1
// blocks), so tall images need no grid.y limit.
inline dim3 grid_of(const ConvSpec& s, std::size_t tx, std::size_t ty) {
  return dim3(static_cast<unsigned>(((s.width + tx - 1) / tx) * ((s.height + ty - 1) / ty)));
}

// The tile this block computes: its first output's column and row.
struct TileOrigin {
  std::int64_t x0, y0;
};
__device__ inline TileOrigin tile_origin(const Geometry& g, int tile_w, int tile_h) {
  const std::int64_t b = blockIdx.x;
  return {(b % g.tiles_x) * tile_w, (b / g.tiles_x) * tile_h};
}

// in[y][x], or 0 for a ghost element outside the image.
__device__ inline float load_or_zero(const float* __restrict__ in, const Geometry& g, std::int64_t x, std::int64_t y) {
  return (x >= 0 && x < g.width && y >= 0 && y < g.height) ? __ldg(in + y * g.pitch + x) : 0.0f;
}

// Fills a shared tile of sw x sh floats whose element (0, 0) is the input's
// (x0, y0), ghost elements as zero: the block's threads sweep it in steps
// of blockDim.y rows and blockDim.x columns (the "extra steps" that bring in
// the halo), with no division per element (a flat index would need one, a
// noticeable share of the issue slots next to 8 x 81 FMAs per thread).
__device__ inline void load_tile(float* s, int sw, int sh, const float* __restrict__ in, const Geometry& g,
                                 std::int64_t x0, std::int64_t y0) {
  for (int ly = threadIdx.y; ly < sh; ly += blockDim.y)
    for (int lx = threadIdx.x; lx < sw; lx += blockDim.x) s[ly * sw + lx] = load_or_zero(in, g, x0 + lx, y0 + ly);
}

// load_tile with every element's copy in flight at once (cp.async, 4 bytes
// each, ghosts zero-filled by the copy itself), for the register-blocked
// rungs. load_tile keeps about one load per thread in flight (each load's
// value is stored to shared memory before the next is issued): by Little's
// law ~8 KB per SM, about 1 TB/s at the H100's ~1 us latency, which is what
// the round-1 measurements show for the memory-bound problems (5x5: ~1.5
// TB/s effective). Here a thread's ~20 copies are all outstanding; the
// caller waits with wait_tile() before its __syncthreads().
__device__ inline void load_tile_async(float* s, int sw, int sh, const float* __restrict__ in, const Geometry& g,
                                       std::int64_t x0, std::int64_t y0) {
  for (int ly = threadIdx.y; ly < sh; ly += blockDim.y) {
    const std::int64_t y = y0 + ly;
    const bool row_in = y >= 0 && y < g.height;
    const float* row = in + (row_in ? y : 0) * g.pitch;
    for (int lx = threadIdx.x; lx < sw; lx += blockDim.x) {
      const std::int64_t x = x0 + lx;
      const bool inside = row_in && x >= 0 && x < g.width;
      // A ghost copies 0 bytes from a valid address and zero-fills its 4.
      __pipeline_memcpy_async(s + ly * sw + lx, inside ? row + x : in, sizeof(float), inside ? 0 : sizeof(float));
    }
  }
  __pipeline_commit();
}

__device__ inline void wait_tile() { __pipeline_wait_prior(0); }

}  // namespace tessera::convolution_impl::gpu
