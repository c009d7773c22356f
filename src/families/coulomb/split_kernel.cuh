// The kernel of coulomb step 7 (07_mufu_fma_split.cu says what it does and
// why), as a template over the split: the product's rows instantiate
// policy.hpp's splits, the lab's sweep (lab/coulomb/) the others.
#pragma once

#include <type_traits>
#include <utility>

#include "families/coulomb/common.cuh"
#include "tessera/blocks/reducers.hpp"

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
  if constexpr (P >= FMA_POINTS) inv = mufu_rsqrt(r2);
  else if constexpr (NEWTON == SERIES_STEP) inv = fma_rsqrt_series(r2);
  else inv = fma_rsqrt<NEWTON>(r2);
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

// The atoms [first, end) of this block: grid z is `layers` lattice layers
// times the atom ranges (Cover). ranged: there are several ranges, whose
// partial sums meet in atomicAdds.
struct BlockAtoms {
  bool ranged;
  std::size_t first, end;
};
__device__ __forceinline__ BlockAtoms block_atoms(std::size_t n_atoms, unsigned layers, std::size_t atoms_per_range) {
  const std::size_t first = std::size_t(blockIdx.z / layers) * atoms_per_range;
  return {gridDim.z > layers, first, first + atoms_per_range < n_atoms ? first + atoms_per_range : n_atoms};
}

// The thread's N sums across the atom tiles. COMPENSATED: each tile's sums
// are folded into Kahan-compensated totals (KahanSum's add) and restart at
// zero, so that a long atom list loses less to rounding; the result is the
// running total (s, without its correction). Otherwise the sums simply run
// on and this holds nothing.
template <int N, bool COMPENSATED>
struct TileTotals {
  KahanState acc[COMPENSATED ? N : 1] = {};

  // After each tile.
  __device__ __forceinline__ void fold(float (&v)[N]) {
    if constexpr (COMPENSATED) {
#pragma unroll
      for (int p = 0; p < N; ++p) {
        KahanSum::add(acc[p], v[p]);
        v[p] = 0.0f;
      }
    }
  }
  // After the last tile: v holds the thread's sums.
  __device__ __forceinline__ void finish(float (&v)[N]) const {
    if constexpr (COMPENSATED) {
#pragma unroll
      for (int p = 0; p < N; ++p) v[p] = acc[p].s;
    }
  }
};

// Stores the thread's sums of layer k: point p of row r at (i0 + BLOCK_X p,
// j0 + WARPS r). Padded lattice: points past the row's end and rows past ny
// were computed (no test in the loop) and are not stored. ranged: the block
// holds one atom range's partial sums, added to the zeroed output.
template <int POINTS_X, int ROWS>
__device__ __forceinline__ void store_points(const float (&v)[POINTS_X * ROWS], const Lattice& L, std::size_t i0,
                                             std::size_t j0, std::size_t k, bool ranged, float* __restrict__ out) {
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
  const auto [ranged, first_atom, end_atom] = block_atoms(n_atoms, layers, atoms_per_range);
  for (std::size_t k = blockIdx.z % layers; k < L.nz; k += layers) {
    const float z = point_coord(L.origin[2], L.spacing, k);
    float v[N] = {};
    TileTotals<N, COMPENSATED> totals;
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
      totals.fold(v);
    }
    totals.finish(v);
    store_points<POINTS_X, ROWS>(v, L, i0, j0, k, ranged, out);
  }
}

// The same sum with the per-atom work of the inner loop moved into the tile
// load ("shared rows"). Every warp of a block shares the block's layer z and
// the block's WARPS x ROWS rows are known at the load, so each thread, for
// its atom of the tile, computes dy^2 + dz^2 for every row of the block once
// and stores it in shared memory beside (x, q); the inner loop per atom is
// then two broadcast loads (x, q and the warp's ROWS values of dy^2 + dz^2)
// and the pairs: no dz, dy, dy^2 + dz^2 or coincidence test per atom and
// warp. The coincidence test runs at the load for the whole tile
// (__syncthreads_or): a tile with an atom on one of the block's (y, z) lines
// (almost never) takes the guarded form. Same float operations as the kernel
// above, so the same sums bit for bit.
// 8 blocks per SM (at most 64 registers), as the kernel above reaches on its
// own: the grids of FILL_BLOCKS blocks then run in two nearly full waves.
constexpr int SHARED_ROWS_BLOCKS = 8;
template <int POINTS_X, int ROWS, int FMA_POINTS, int NEWTON, bool COMPENSATED>
__global__ void __launch_bounds__(TILE, SHARED_ROWS_BLOCKS) coulomb_split_shared_rows_kernel(const float4* __restrict__ atoms,
                                                                         std::size_t n_atoms, Lattice L,
                                                                         unsigned layers,
                                                                         std::size_t atoms_per_range,
                                                                         float* __restrict__ out) {
  static_assert(FMA_POINTS >= 0 && FMA_POINTS <= POINTS_X * ROWS, "the split takes some of the thread's points");
  static_assert(ROWS == 2 || ROWS == 4, "a warp's row values are read as one float2 or float4");
  using RowValues = std::conditional_t<ROWS == 2, float2, float4>;
  constexpr int N = POINTS_X * ROWS;
  __shared__ float2 x_q[TILE];               // the atom's x and charge
  __shared__ RowValues dyz_rows[WARPS][TILE];  // dy^2 + dz^2 of the atom for warp w's rows
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;
  const std::size_t i0 = std::size_t(blockIdx.x) * BLOCK_X * POINTS_X + threadIdx.x;
  const std::size_t j_block = std::size_t(blockIdx.y) * WARPS * ROWS;
  const std::size_t j0 = j_block + threadIdx.y;  // rows j0 + WARPS r, as above
  float x[POINTS_X];
#pragma unroll
  for (int p = 0; p < POINTS_X; ++p) x[p] = point_coord(L.origin[0], L.spacing, i0 + std::size_t(p) * BLOCK_X);

  const auto [ranged, first_atom, end_atom] = block_atoms(n_atoms, layers, atoms_per_range);
  for (std::size_t k = blockIdx.z % layers; k < L.nz; k += layers) {
    const float z = point_coord(L.origin[2], L.spacing, k);
    float v[N] = {};
    TileTotals<N, COMPENSATED> totals;
    for (std::size_t base = first_atom; base < end_atom; base += TILE) {
      __syncthreads();  // the previous tile is read by everyone
      bool near = false;
      if (base + tid < end_atom) {
        const float4 at = atoms[base + tid];
        x_q[tid] = make_float2(at.x, at.w);
        const float dz = z - at.z;
        const float dz2 = dz * dz;
#pragma unroll
        for (int w = 0; w < WARPS; ++w) {
          float d[ROWS];
#pragma unroll
          for (int r = 0; r < ROWS; ++r) {
            const float dy = point_coord(L.origin[1], L.spacing, j_block + std::size_t(w + r * WARPS)) - at.y;
            d[r] = fmaf(dy, dy, dz2);
            near |= d[r] < MIN_R2;
          }
          if constexpr (ROWS == 2) dyz_rows[w][tid] = make_float2(d[0], d[1]);
          else dyz_rows[w][tid] = make_float4(d[0], d[1], d[2], d[3]);
        }
      }
      // Block-uniform: every thread takes the same form for the whole tile.
      const bool tile_near = __syncthreads_or(near);
      const int count = int(end_atom - base < TILE ? end_atom - base : TILE);
      const RowValues* my_rows = dyz_rows[threadIdx.y];
      auto sum_tile = [&](auto guard) {
#pragma unroll 4
        for (int a = 0; a < count; ++a) {
          const float2 xq = x_q[a];
          const RowValues rv = my_rows[a];
          float dyz[ROWS];
          if constexpr (ROWS == 2) {
            dyz[0] = rv.x;
            dyz[1] = rv.y;
          } else {
            dyz[0] = rv.x;
            dyz[1] = rv.y;
            dyz[2] = rv.z;
            dyz[3] = rv.w;
          }
          add_atom<POINTS_X, ROWS, FMA_POINTS, NEWTON, decltype(guard)::value>(
              make_float4(xq.x, 0.0f, 0.0f, xq.y), x, dyz, v, std::make_integer_sequence<int, N>{});
        }
      };
      if (tile_near) sum_tile(std::true_type{});
      else sum_tile(std::false_type{});
      totals.fold(v);
    }
    totals.finish(v);
    store_points<POINTS_X, ROWS>(v, L, i0, j0, k, ranged, out);
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

// SHARED_ROWS: the shared-rows kernel (dy^2 + dz^2 computed at the tile
// load), else the per-atom form.
template <int POINTS_X, int ROWS, int FMA_POINTS, int NEWTON, bool COMPENSATED, bool SHARED_ROWS = false>
inline void run_split(const CoulombCall& call, const char* name) {
  const Lattice& L = call.spec.lattice;
  const Cover c = cover(call.spec, BLOCK_X * POINTS_X, WARPS * ROWS);
  if (c.ranges())  // the ranges' partial sums are added to zeros
    TESSERA_CUDA(cudaMemsetAsync(call.potential, 0, L.points() * sizeof(float), call.stream));
  auto go = [&](auto kernel) {
    detail::launch(name, kernel, c.grid, dim3(BLOCK_X, WARPS), 0, call.stream, L.points(),
                   reinterpret_cast<const float4*>(call.atoms), call.spec.n_atoms, L, c.layers, c.atoms_per_range,
                   call.potential);
  };
  if constexpr (SHARED_ROWS) go(coulomb_split_shared_rows_kernel<POINTS_X, ROWS, FMA_POINTS, NEWTON, COMPENSATED>);
  else go(coulomb_mufu_fma_split_kernel<POINTS_X, ROWS, FMA_POINTS, NEWTON, COMPENSATED>);
}

}  // namespace

}  // namespace tessera::coulomb_impl::split
