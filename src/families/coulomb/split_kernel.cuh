// The kernel of coulomb step 7 (07_mufu_fma_split.cu says what it does and
// why), as a template over the split: the product's rows instantiate
// policy.hpp's splits, the lab's sweep (lab/coulomb/) the others.
#pragma once

#include <utility>

#include "families/coulomb/common.cuh"

namespace tessera::coulomb_impl::split {

// Internal linkage: every file that instantiates the kernel (the product's
// rung, the lab's sweep) registers its own copies with its own module.
namespace {

constexpr int WARPS = 4;             // 128 threads: one atom of the tile each
constexpr int TILE = BLOCK_X * WARPS;
// Blocks that fill an H100 about twice (132 SMs x 8 resident blocks): a
// lattice with fewer blocks (the 2D slice: 32) splits its atoms into ranges
// of at least MIN_SPLIT_ATOMS, one block per range and point tile, whose
// partial sums meet in atomicAdds on a zeroed output.
constexpr std::size_t FILL_BLOCKS = 2048;
constexpr std::size_t MIN_SPLIT_ATOMS = 8 * TILE;

// How a launch covers the lattice and the atoms: grid z holds `layers`
// lattice layers (looped past 65535) times the atom ranges.
struct Cover {
  dim3 grid;
  unsigned layers;
  std::size_t atoms_per_range;  // a multiple of TILE
  bool ranges() const { return grid.z > layers; }
};

// 1/r for point index p of the thread: the first FMA_POINTS on the FMA pipe.
template <int P, int FMA_POINTS, int NEWTON, bool GUARD>
__device__ __forceinline__ float split_rsqrt(float r2) {
  float inv;
  if constexpr (P < FMA_POINTS) inv = fma_rsqrt<NEWTON>(r2);
  else inv = mufu_rsqrt(r2);
  if constexpr (GUARD) inv = r2 < MIN_R2 ? 0.0f : inv;
  return inv;
}

template <int POINTS_X, int ROWS, int FMA_POINTS, int NEWTON, bool GUARD, int... P>
__device__ __forceinline__ void add_atom(float4 at, const float (&x)[POINTS_X], const float (&dyz)[ROWS],
                                         float (&v)[ROWS * POINTS_X], std::integer_sequence<int, P...>) {
  // One fold over the thread's points, P = r * POINTS_X + px, so that the
  // split's choice per point is a compile-time constant.
  ((v[P] = fmaf(at.w,
                split_rsqrt<P, FMA_POINTS, NEWTON, GUARD>(
                    fmaf(x[P % POINTS_X] - at.x, x[P % POINTS_X] - at.x, dyz[P / POINTS_X])),
                v[P])),
   ...);
}

template <int POINTS_X, int ROWS, int FMA_POINTS, int NEWTON, bool COMPENSATED>
__global__ void __launch_bounds__(TILE) coulomb_mufu_fma_split_kernel(const float4* __restrict__ atoms,
                                                                      std::size_t n_atoms, Lattice L,
                                                                      unsigned layers, std::size_t atoms_per_range,
                                                                      float* __restrict__ out) {
  static_assert(FMA_POINTS >= 0 && FMA_POINTS <= POINTS_X * ROWS, "the split takes some of the thread's points");
  constexpr int N = POINTS_X * ROWS;
  __shared__ float4 tile[TILE];
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;
  const std::size_t i0 = std::size_t(blockIdx.x) * BLOCK_X * POINTS_X + threadIdx.x;
  // Rows j0 + WARPS r: a block covers WARPS x ROWS consecutive rows.
  const std::size_t j0 = std::size_t(blockIdx.y) * WARPS * ROWS + threadIdx.y;
  float x[POINTS_X], y[ROWS];
#pragma unroll
  for (int p = 0; p < POINTS_X; ++p) x[p] = point_coord(L.origin[0], L.spacing, i0 + std::size_t(p) * BLOCK_X);
#pragma unroll
  for (int r = 0; r < ROWS; ++r) y[r] = point_coord(L.origin[1], L.spacing, j0 + std::size_t(r) * WARPS);

  // This block's atom range and first layer (block-uniform: the barriers
  // stay aligned).
  const bool ranged = gridDim.z > layers;
  const std::size_t range = blockIdx.z / layers;
  const std::size_t first_atom = range * atoms_per_range;
  const std::size_t end_atom = first_atom + atoms_per_range < n_atoms ? first_atom + atoms_per_range : n_atoms;
  for (std::size_t k = blockIdx.z % layers; k < L.nz; k += layers) {
    const float z = point_coord(L.origin[2], L.spacing, k);
    float v[N] = {};
    // COMPENSATED: the running totals and their Kahan corrections.
    float total[COMPENSATED ? N : 1] = {}, correction[COMPENSATED ? N : 1] = {};
    for (std::size_t base = first_atom; base < end_atom; base += TILE) {
      __syncthreads();  // the previous tile is read by everyone
      if (base + tid < end_atom) tile[tid] = atoms[base + tid];
      __syncthreads();
      const int count = int(end_atom - base < TILE ? end_atom - base : TILE);
#pragma unroll 2
      for (int a = 0; a < count; ++a) {
        const float4 at = tile[a];
        const float dz = z - at.z;
        const float dz2 = dz * dz;
        float dyz[ROWS];
        bool near = false;
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
          const float dy = y[r] - at.y;
          dyz[r] = fmaf(dy, dy, dz2);
          near |= dyz[r] < MIN_R2;
        }
        // A row through the atom: the guarded form. Warp-uniform whenever the
        // warp's rows are (a warp shares its rows).
        if (near)
          add_atom<POINTS_X, ROWS, FMA_POINTS, NEWTON, true>(at, x, dyz, v, std::make_integer_sequence<int, N>{});
        else
          add_atom<POINTS_X, ROWS, FMA_POINTS, NEWTON, false>(at, x, dyz, v, std::make_integer_sequence<int, N>{});
      }
      if constexpr (COMPENSATED) {
#pragma unroll
        for (int p = 0; p < N; ++p) {
          const float y = v[p] - correction[p];
          const float t = total[p] + y;
          correction[p] = (t - total[p]) - y;
          total[p] = t;
          v[p] = 0.0f;
        }
      }
    }
    if constexpr (COMPENSATED) {
#pragma unroll
      for (int p = 0; p < N; ++p) v[p] = total[p];
    }
    // Padded lattice: points past the row's end and rows past ny were
    // computed (no test in the loop) and are not stored.
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const std::size_t j = j0 + std::size_t(r) * WARPS;
      if (j >= L.ny) continue;
      float* row = out + L.nx * (j + L.ny * k);
#pragma unroll
      for (int p = 0; p < POINTS_X; ++p) {
        const std::size_t i = i0 + std::size_t(p) * BLOCK_X;
        if (i >= L.nx) continue;
        if (ranged) atomicAdd(row + i, v[r * POINTS_X + p]);
        else row[i] = v[r * POINTS_X + p];
      }
    }
  }
}

inline Cover cover(const CoulombSpec& spec, std::size_t points_per_block_x, std::size_t rows_per_block) {
  Cover c;
  c.grid = grid_2d(spec.lattice, points_per_block_x, rows_per_block);
  c.layers = c.grid.z;
  c.atoms_per_range = detail::div_up(std::max<std::size_t>(spec.n_atoms, 1), TILE) * TILE;
  const std::size_t blocks = std::size_t(c.grid.x) * c.grid.y * c.grid.z;
  std::size_t ranges = std::min(detail::div_up(FILL_BLOCKS, blocks), spec.n_atoms / MIN_SPLIT_ATOMS);
  ranges = std::min<std::size_t>(ranges, GRID_YZ_MAX / c.layers);
  if (ranges > 1) {
    c.atoms_per_range = detail::div_up(detail::div_up(spec.n_atoms, ranges), TILE) * TILE;
    c.grid.z = unsigned(c.layers * detail::div_up(spec.n_atoms, c.atoms_per_range));
  }
  return c;
}

template <int POINTS_X, int ROWS, int FMA_POINTS, int NEWTON, bool COMPENSATED>
inline void run_split(const CoulombCall& call, const char* name) {
  const Lattice& L = call.spec.lattice;
  const Cover c = cover(call.spec, BLOCK_X * POINTS_X, WARPS * ROWS);
  if (c.ranges())  // the ranges' partial sums are added to zeros
    TESSERA_CUDA(cudaMemsetAsync(call.potential, 0, L.points() * sizeof(float), call.stream));
  detail::launch(name, coulomb_mufu_fma_split_kernel<POINTS_X, ROWS, FMA_POINTS, NEWTON, COMPENSATED>, c.grid,
                 dim3(BLOCK_X, WARPS), 0, call.stream, L.points(), reinterpret_cast<const float4*>(call.atoms),
                 call.spec.n_atoms, L, c.layers, c.atoms_per_range, call.potential);
}

}  // namespace

}  // namespace tessera::coulomb_impl::split
