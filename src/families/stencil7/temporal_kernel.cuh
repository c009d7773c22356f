// The block of temporal_blocking (06_temporal_blocking.cu): one padded x-y
// tile walked along z, STEPS sweep levels in a wavefront. Kept apart from the
// launch code and written against three names a CUDA build has and a host
// build must supply (threadIdx, blockIdx, __syncthreads), so that
// tests/test_stencil7_emulated.cpp runs this very code on CPU threads.
//
// The tile: PX x PY columns, the interior IX x IY = (PX - 2 STEPS) x (PY - 2
// STEPS) written, plus a halo of STEPS cells per side recomputed redundantly
// (level l is only right at columns at least l from the tile's edge, so after
// STEPS levels the interior is). At step i the block loads input plane i
// (level 0) and computes plane i - l of level l for l = 1..STEPS. A thread
// owns ROWS adjacent columns (rows y .. y + ROWS - 1 at one x) and keeps, per
// level below STEPS, the cells of three consecutive planes in registers (the
// z neighbours, and the y neighbours of its inner rows); x neighbours and the
// y neighbours past its first and last row come from shared memory, where
// each level writes its newest plane into one of two slots by plane parity,
// so one barrier per step orders everything.
//
// What one step costs is instructions (docs/stencil7.md: the first two
// versions' time followed their instruction count, not the shared-memory
// pipe), so the steps are written to issue few:
// - The three planes of a level rotate by renaming, not by moves: the z loop
//   is unrolled by 3 and step<ROT> names the planes (ROT, ROT + 1, ROT + 2)
//   mod 3 at compile time.
// - Every thread computes every cell the same way; where a cell must not be
//   updated, a select keeps its centre. Reads stay inside shared memory
//   without a test: each slot has a guard row above and below the tile, and
//   the lanes at a row's ends read the neighbouring row's end (garbage that
//   only reaches halo cells, which are never written).
// - Three kinds of step (Guard): `none` for warps whose 32 columns and 4
//   rows are all interior to the grid, at z steps where every level's plane
//   is interior and written (no test at all); `xy` for the other warps at
//   those steps (a select per cell, predicated loads and stores); `all` for
//   the few steps at the ends of the z walk (z tests too, rotation by
//   moves). The choice is per warp (a warp is 32 lanes of one thread row),
//   so all the warps of a tile inside the grid, and most of a tile on its
//   faces, take `none`; the barrier stays outside the branch.
#pragma once

#include <algorithm>
#include <cstddef>

#include "families/stencil7/point.hpp"

#if defined(__CUDACC__)
#define TESSERA_BLOCK_FN __device__ __forceinline__
#define TESSERA_UNROLL _Pragma("unroll")
#else
#define TESSERA_BLOCK_FN inline
#define TESSERA_UNROLL
#endif

namespace tessera::stencil7_impl::temporal {

constexpr int PX = 64;       // tile width: two warps along x, 256-byte float rows
constexpr int TY = 8;        // thread rows: PX * TY = 512 threads
constexpr int ROWS = 4;      // tile rows per thread: PY = 32
constexpr int PY = TY * ROWS;
// Planes per block along z (+ 2 * STEPS re-read): at most ZCHUNK, at least
// ZCHUNK_MIN where the grid allows; pass_shape picks it (see there).
constexpr int ZCHUNK = 128;
constexpr int ZCHUNK_MIN = 32;
// One level's plane in shared memory: the tile with a guard row above and below.
constexpr int SLOT = (PY + 2) * PX;

// Shared memory of a block fusing STEPS sweeps: STEPS levels x 2 parities.
template <int STEPS>
constexpr std::size_t smem_elems() {
  return std::size_t(STEPS) * 2 * SLOT;
}

// What the block needs of the grid (a kernel parameter: the strides are
// read from the constant bank, not held in registers); tiles_x = the tiles
// along x, rows[j] = j rows in bytes, plane = one plane in bytes.
struct BlockGrid {
  int nx, ny, nz;
  int tiles_x;
  int zchunk;  // planes a block writes (blockIdx.y = the chunk)
  long long rows[ROWS];
  long long plane;
};

// One pass's launch: blockIdx.x = the tiles (x fastest), blockIdx.y = the z
// chunks; PX x TY threads and smem_elems<STEPS>() elements of shared memory.
struct PassShape {
  BlockGrid grid;
  unsigned blocks_x, blocks_y;
};

// The z chunks of a pass whose `tiles` tiles run on `slots` resident blocks
// (SMs x blocks per SM; 0: unknown, chunks of ZCHUNK). A block's time is
// about its steps, chunk + 2 STEPS; blocks run in waves of `slots`, and a
// partial last wave costs nearly a whole one (Nsight Compute on the H100,
// 512^3 float STEPS = 4: 880 blocks of 128 planes on 264 slots, 3.33 waves,
// SMs active 92% of the elapsed cycles). So the count of chunks minimises
// waves x (chunk + 2 STEPS), chunks of ZCHUNK_MIN to ZCHUNK planes; at
// 512^3 float: 6 chunks of 86 planes, 1320 blocks = 5 full waves.
template <int STEPS>
inline std::size_t z_chunks(std::size_t tiles, std::size_t nz, std::size_t slots) {
  const std::size_t fewest = (nz + ZCHUNK - 1) / ZCHUNK;
  if (slots == 0) return fewest;
  const std::size_t most = std::max(fewest, (nz + ZCHUNK_MIN - 1) / ZCHUNK_MIN);
  std::size_t best = fewest, best_cost = ~std::size_t(0);
  for (std::size_t c = fewest; c <= most && c <= 65535; ++c) {
    const std::size_t waves = (tiles * c + slots - 1) / slots;
    const std::size_t cost = waves * ((nz + c - 1) / c + 2 * STEPS);
    if (cost < best_cost) best = c, best_cost = cost;  // ties: fewer blocks
  }
  return best;
}

template <int STEPS>
inline PassShape pass_shape(std::size_t nx, std::size_t ny, std::size_t nz, std::size_t elem,
                            std::size_t slots = 0) {
  constexpr std::size_t IX = PX - 2 * STEPS, IY = PY - 2 * STEPS;
  const std::size_t tiles_x = (nx + IX - 1) / IX, tiles_y = (ny + IY - 1) / IY;
  const std::size_t chunks = z_chunks<STEPS>(tiles_x * tiles_y, nz, slots);
  const std::size_t zchunk = (nz + chunks - 1) / chunks;
  PassShape s{{int(nx), int(ny), int(nz), int(tiles_x), int(zchunk), {}, (long long)(nx * ny * elem)},
              unsigned(tiles_x * tiles_y),
              unsigned((nz + zchunk - 1) / zchunk)};
  for (int j = 0; j < ROWS; ++j) s.grid.rows[j] = (long long)(j * nx * elem);
  return s;
}

enum class Guard { none, xy, all };

// The input is never written during a pass: read it through the
// non-coherent (read-only) path.
template <class T>
TESSERA_BLOCK_FN T load_input(const unsigned char* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(reinterpret_cast<const T*>(p));
#else
  return *reinterpret_cast<const T*>(p);
#endif
}

TESSERA_BLOCK_FN int imin(int a, int b) { return a < b ? a : b; }
TESSERA_BLOCK_FN int imax(int a, int b) { return a > b ? a : b; }

// One thread's column of the tile. Global addresses as byte pointers that
// move one plane a step: an address is then one 64-bit add of a constant.
template <class T>
struct Column {
  const unsigned char* ld;  // input plane i + 1 at the thread's first row (may lie outside the grid)
  unsigned char* st;        // output plane i - STEPS at the thread's first row (idem)
  T* smem;                  // the thread's first row in slot (level 0, parity 0)
  int z0, z1;               // the planes this block writes
  unsigned flags;           // per row j: the bits below, shifted by j

  // Row j's column exists (loads); is not interior to the grid (keeps its
  // centre); is in the tile's interior and in the grid (stored at level STEPS).
  static constexpr unsigned IN_GRID = 1u, KEEP = 1u << ROWS, WRITES = 1u << (2 * ROWS);
  TESSERA_BLOCK_FN bool has(unsigned bit, int j) const { return (flags & (bit << j)) != 0; }
};

// The registers that rotate: per level below STEPS the thread's cells of
// three consecutive planes, and input plane i + 1, loaded one step early.
template <class T, int STEPS>
struct Planes {
  T r[STEPS][3][ROWS];
  T ahead[ROWS];
};

// Step i (one z plane of every level), its planes named by ROT: before it,
// level l's planes i - l - 3, i - l - 2, i - l - 1 sit in r[l][ROT],
// r[l][ROT + 1], r[l][ROT + 2] (mod 3); it writes plane i - l into r[l][ROT],
// so the next step has ROT + 1. The caller ends it with the block's barrier.
template <int ROT, Guard G, class T, int STEPS>
TESSERA_BLOCK_FN void step(Planes<T, STEPS>& s, Column<T>& c, const BlockGrid& g, T c0, T c1, int i) {
  constexpr int NEW = ROT % 3, ZM = (ROT + 1) % 3, MID = (ROT + 2) % 3;
  // Level l's plane i - l has parity (i & 1) ^ (l & 1): the slots of parity
  // i & 1 and the others.
  const int par = i & 1;
  T* const even_l = c.smem + par * SLOT;        // levels l even
  T* const odd_l = c.smem + (par ^ 1) * SLOT;  // levels l odd

  // Level 0: input plane i, and the load of plane i + 1.
  TESSERA_UNROLL
  for (int j = 0; j < ROWS; ++j) {
    s.r[0][NEW][j] = s.ahead[j];
    even_l[j * PX] = s.ahead[j];
  }
  TESSERA_UNROLL
  for (int j = 0; j < ROWS; ++j) {
    const unsigned char* const at = c.ld + g.rows[j];
    if constexpr (G == Guard::none) s.ahead[j] = load_input<T>(at);
    else if constexpr (G == Guard::xy) s.ahead[j] = c.has(c.IN_GRID, j) ? load_input<T>(at) : T(0);
    else s.ahead[j] = (c.has(c.IN_GRID, j) && i + 1 < g.nz) ? load_input<T>(at) : T(0);
  }

  // Levels 1..STEPS: plane p = i - l from level l - 1's planes p - 1, p, p + 1.
  TESSERA_UNROLL
  for (int l = 1; l <= STEPS; ++l) {
    const int p = i - l;
    T* const slots_l = (l & 1) ? odd_l : even_l;
    const T* const below = slots_l + (l - 1) * 2 * SLOT;  // level l - 1, plane p
    const bool z_keep = G == Guard::all && !(p > 0 && p < g.nz - 1);
    TESSERA_UNROLL
    for (int j = 0; j < ROWS; ++j) {
      const T centre = s.r[l - 1][MID][j];
      const T* const b = below + j * PX;
      // y neighbours: the thread's own rows in registers, shared memory only
      // past its first and last row.
      const T ym = j > 0 ? s.r[l - 1][MID][j - 1] : b[-PX];
      const T yp = j < ROWS - 1 ? s.r[l - 1][MID][j + 1] : b[PX];
      T v = stencil_point(c0, c1, centre, b[-1], b[1], ym, yp, s.r[l - 1][ZM][j], s.r[l - 1][NEW][j]);
      if constexpr (G == Guard::xy) v = c.has(c.KEEP, j) ? centre : v;
      if constexpr (G == Guard::all) v = (c.has(c.KEEP, j) || z_keep) ? centre : v;
      if (l < STEPS) {
        s.r[l < STEPS ? l : 0][NEW][j] = v;  // (the index only silences a bounds warning)
        slots_l[l * 2 * SLOT + j * PX] = v;
      } else if (c.has(c.WRITES, G == Guard::none && STEPS % ROWS == 0 ? 0 : j) &&
                 (G != Guard::all || (p >= c.z0 && p < c.z1))) {
        // (An interior warp's rows all write or none does when STEPS is a
        // multiple of ROWS: one test for the thread.)
        *reinterpret_cast<T*>(c.st + g.rows[j]) = v;
      }
    }
  }
  c.ld += g.plane;
  c.st += g.plane;
}

// After step<0, all>: back to ROT = 0 by moves (r[l][k] <- r[l][k + 1]).
template <class T, int STEPS>
TESSERA_BLOCK_FN void rotate(Planes<T, STEPS>& s) {
  TESSERA_UNROLL
  for (int l = 0; l < STEPS; ++l)
    TESSERA_UNROLL
    for (int j = 0; j < ROWS; ++j) {
      const T first = s.r[l][0][j];
      s.r[l][0][j] = s.r[l][1][j];
      s.r[l][1][j] = s.r[l][2][j];
      s.r[l][2][j] = first;
    }
}

// The whole block: tile blockIdx.x (x fastest), z chunk blockIdx.y.
template <class T, int STEPS>
TESSERA_BLOCK_FN void run_block(const T* in, T* out, const BlockGrid& g, T c0, T c1, T* slots) {
  constexpr int IX = PX - 2 * STEPS;
  constexpr int IY = PY - 2 * STEPS;
  const int lx = int(threadIdx.x);
  const int ly0 = int(threadIdx.y) * ROWS;
  const int tx0 = int(blockIdx.x % unsigned(g.tiles_x)) * IX - STEPS;  // the padded tile's first column
  const int ty0 = int(blockIdx.x / unsigned(g.tiles_x)) * IY - STEPS;
  const int gx = tx0 + lx;
  const int z0 = int(blockIdx.y) * g.zchunk;
  const int zs = imax(0, z0 - STEPS);  // the first step: input plane zs
  // Byte offset of the thread's first row in plane 0 (negative in a halo
  // before the grid: only dereferenced inside it).
  const long long col0 = ((long long)(ty0 + ly0) * g.nx + gx) * (long long)sizeof(T);

  Column<T> c;
  c.ld = reinterpret_cast<const unsigned char*>(in) + col0 + (zs + 1) * g.plane;
  c.st = reinterpret_cast<unsigned char*>(out) + col0 + (zs - STEPS) * g.plane;
  c.smem = slots + (ly0 + 1) * PX + lx;
  c.z0 = z0;
  c.z1 = imin(z0 + g.zchunk, g.nz);
  const bool x_in = gx >= 0 && gx < g.nx;
  const bool x_inner = gx > 0 && gx < g.nx - 1;
  const bool x_out = lx >= STEPS && lx < PX - STEPS && x_in;
  c.flags = 0;
  TESSERA_UNROLL
  for (int j = 0; j < ROWS; ++j) {
    const int ly = ly0 + j, gy = ty0 + ly;
    const bool y_in = gy >= 0 && gy < g.ny;
    if (x_in && y_in) c.flags |= c.IN_GRID << j;
    if (!(x_inner && gy > 0 && gy < g.ny - 1)) c.flags |= c.KEEP << j;
    if (x_out && y_in && ly >= STEPS && ly < PY - STEPS) c.flags |= c.WRITES << j;
  }
  // The warp's 32 columns and the thread's rows all interior to the grid:
  // the same for every thread of a warp (a warp is 32 lanes of one thread
  // row), so the warps of tiles inside the grid, and most warps of tiles on
  // its faces, take the test-free step.
  const int wx0 = tx0 + (lx & ~31);
  const bool warp_inner = wx0 >= 1 && wx0 + 31 <= g.nx - 2 && ty0 + ly0 >= 1 && ty0 + ly0 + ROWS - 1 <= g.ny - 2;

  // The guard rows (above and below each slot's tile) hold zeros: read by
  // the first and last thread rows, their values reach only halo cells.
  for (int k = int(threadIdx.y) * PX + lx; k < STEPS * 2 * PX; k += PX * TY) {
    T* const slot = slots + (k / PX) * SLOT;
    slot[k % PX] = T(0);
    slot[(PY + 1) * PX + k % PX] = T(0);
  }

  Planes<T, STEPS> s;
  TESSERA_UNROLL
  for (int l = 0; l < STEPS; ++l)
    TESSERA_UNROLL
    for (int k = 0; k < 3; ++k)
      TESSERA_UNROLL
      for (int j = 0; j < ROWS; ++j) s.r[l][k][j] = T(0);
  TESSERA_UNROLL
  for (int j = 0; j < ROWS; ++j)
    s.ahead[j] = c.has(c.IN_GRID, j) ? load_input<T>(c.ld - g.plane + g.rows[j]) : T(0);
  __syncthreads();  // the guard rows

  // Steps i in [steady_lo, steady_hi]: every level's plane i - l interior to
  // the grid (1 <= i - STEPS, i - 1 <= nz - 2), level STEPS's plane one this
  // block writes (i - STEPS >= z0), plane i + 1 inside the grid (i <= nz - 2).
  // i is the same in every thread: the barriers are in uniform control flow.
  const int last = c.z1 - 1 + STEPS;  // the step that computes plane z1 - 1 at level STEPS
  const int steady_lo = imax(z0, 1) + STEPS;
  const int steady_hi = imin(last, g.nz - 2);
  int i = zs;
  for (; i <= last && !(i >= steady_lo && i + 2 <= steady_hi); ++i) {
    step<0, Guard::all>(s, c, g, c0, c1, i);
    __syncthreads();
    rotate(s);
  }
  for (; i + 2 <= steady_hi; i += 3) {
    if (warp_inner) step<0, Guard::none>(s, c, g, c0, c1, i);
    else step<0, Guard::xy>(s, c, g, c0, c1, i);
    __syncthreads();
    if (warp_inner) step<1, Guard::none>(s, c, g, c0, c1, i + 1);
    else step<1, Guard::xy>(s, c, g, c0, c1, i + 1);
    __syncthreads();
    if (warp_inner) step<2, Guard::none>(s, c, g, c0, c1, i + 2);
    else step<2, Guard::xy>(s, c, g, c0, c1, i + 2);
    __syncthreads();
  }
  for (; i <= last; ++i) {
    step<0, Guard::all>(s, c, g, c0, c1, i);
    __syncthreads();
    rotate(s);
  }
}

}  // namespace tessera::stencil7_impl::temporal

#undef TESSERA_BLOCK_FN
#undef TESSERA_UNROLL
