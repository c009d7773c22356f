// The shared-memory bin-tile kernel of steps 5-7 (seed 000 "Cutoff
// Biomolecules": shared memory holding 4 neighbour bins, 128 threads covering
// an 8 x 8 x 8 region, 4 points per thread along z, the cylinder test).
//
// A block is one region; thread (tx, ty, tz) owns the points (tx, ty,
// 4 tz + m), m = 0..3: coarsened along z, not x, so a warp's writes stay
// contiguous along x (seed: "don't coarsen in the smallest linearisation
// dimension"). Per batch, the 128 threads load 4 neighbour bins (4 x 8 atoms
// x 16 bytes = 512 bytes, one float each: coalesced, no divergence), wait,
// and test all 32 atoms against their 4 points. CYLINDER: dx^2 + dy^2 is
// shared by the 4 points (same x, y): when it already exceeds c^2 the four
// tests are skipped (seed: "cylinder test ... ILP").
#pragma once

#include "families/cutoff/common.cuh"

namespace tessera::cutoff_impl::gpu {

inline constexpr int TILE_THREADS = 128;
inline constexpr int POINTS_PER_THREAD = 4;
inline constexpr int BINS_PER_BATCH = 4;
inline constexpr int BATCH_ATOMS = BINS_PER_BATCH * BIN_CAPACITY;  // 32
static_assert(BATCH_ATOMS * 4 == TILE_THREADS, "one float per thread per batch");
static_assert(REGION * REGION * (REGION / POINTS_PER_THREAD) == TILE_THREADS, "128 threads cover a region");

template <bool CYLINDER>
__global__ void __launch_bounds__(TILE_THREADS)
    cutoff_shared_tile_kernel(const float4* bins, BinGrid g, int n_offsets, LatticeView L, float* potential) {
  __shared__ float4 batch[BATCH_ATOMS];
  const int t = threadIdx.x;
  const int tx = t % REGION, ty = (t / REGION) % REGION, tz = t / (REGION * REGION);
  const int i = blockIdx.x * REGION + tx, j = blockIdx.y * REGION + ty;
  const int k0 = blockIdx.z * REGION + tz * POINTS_PER_THREAD;
  // Points past the lattice compute along (they take part in every load and
  // barrier) and are not written.
  const float x = L.coord(0, i), y = L.coord(1, j);
  float z[POINTS_PER_THREAD], acc[POINTS_PER_THREAD];
#pragma unroll
  for (int m = 0; m < POINTS_PER_THREAD; ++m) {
    z[m] = L.coord(2, k0 + m);
    acc[m] = 0.f;
  }
  const int home_x = blockIdx.x + g.halo, home_y = blockIdx.y + g.halo, home_z = blockIdx.z + g.halo;
  for (int first = 0; first < n_offsets; first += BINS_PER_BATCH) {
    // Thread t loads float t % 32 of bin t / 32 of the batch.
    const int o = first + t / (BIN_CAPACITY * 4);
    float v = EMPTY_SLOT;
    if (o < n_offsets) {
      const int3 d = neighbour_offset(o);
      const std::size_t bin = (std::size_t(home_z + d.z) * g.dims[1] + (home_y + d.y)) * g.dims[0] + (home_x + d.x);
      v = reinterpret_cast<const float*>(bins + bin * BIN_CAPACITY)[t % (BIN_CAPACITY * 4)];
    }
    __syncthreads();  // the previous batch is no longer read
    reinterpret_cast<float*>(batch)[t] = v;
    __syncthreads();
    for (int a = 0; a < BATCH_ATOMS; ++a) {
      const float4 at = batch[a];  // empty slots fail the distance tests
      const float dx = at.x - x, dy = at.y - y;
      const float dxy2 = dx * dx + dy * dy;
      if (CYLINDER && !(dxy2 < L.c2)) continue;
#pragma unroll
      for (int m = 0; m < POINTS_PER_THREAD; ++m) {
        const float dz = at.z - z[m];
        const float r2 = dxy2 + dz * dz;
        if (r2 < L.c2) acc[m] += smoothed_term(at.w, r2, L.inv_c2);
      }
    }
  }
  if (i >= L.n[0] || j >= L.n[1]) return;
#pragma unroll
  for (int m = 0; m < POINTS_PER_THREAD; ++m)
    if (k0 + m < L.n[2]) potential[L.index(i, j, k0 + m)] = acc[m];
}

template <bool CYLINDER>
void launch_shared_tiles(const char* name, const CutoffCall& call, const ConstBins& b, int n_offsets) {
  const BinGrid& g = b.grid;
  const dim3 grid(unsigned(g.regions[0]), unsigned(g.regions[1]), unsigned(g.regions[2]));
  detail::launch(name, cutoff_shared_tile_kernel<CYLINDER>, grid, TILE_THREADS, 0, call.stream,
                 call.spec.lattice.points(), b.bins, g, n_offsets, view_of(call.spec), call.potential);
}

}  // namespace tessera::cutoff_impl::gpu
