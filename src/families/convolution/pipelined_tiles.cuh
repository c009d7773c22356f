// The kernel of pipelined_tiles (07_pipelined_tiles.cu, which explains the
// design) as a template over the mask size and the number of shared
// buffers and the shape of its FMA loop, so that the lab can run variants of
// the same kernel (lab/convolution/). Included by one .cu per instantiation
// set: the product instantiates Mode::product only, the lab the others.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/kernel_resources.hpp"
#include "families/convolution/common.cuh"
#include "tessera/blocks/cp_async.cuh"
#include "tessera/blocks/device.cuh"

namespace tessera::convolution_impl::pipelined {

constexpr int BX = 32, BY = 8;          // threads: a warp along a row
constexpr int CX = 4, CY = 8;           // outputs per thread: 4 columns x 8 rows
constexpr int TILE_W = BX * CX;         // 128 output columns
constexpr int TILE_H = BY * CY;         // 64 output rows
constexpr int PAD = 4;                  // shared columns left (and right) of the tile: rx <= PAD
constexpr int SW = PAD + TILE_W + PAD;  // shared row: 136 floats, 34 chunks of 16 bytes
constexpr int CHUNKS_PER_ROW = SW / 4;
constexpr int THREADS = BX * BY;
constexpr int MAX_MASK = 2 * PAD + 1;  // 9
static_assert(SW % 4 == 0, "shared rows must be whole 16-byte chunks");

template <int M>
struct SquareTaps {
  float w[M * M];
};

// The dynamic walk's workspace: one tile counter.
constexpr std::size_t WALK_WORKSPACE_BYTES = sizeof(unsigned);

// Rows of one shared buffer: the tile and its vertical halo.
constexpr int rows_of(int m) { return TILE_H + m - 1; }
constexpr std::size_t buffer_floats(int m) { return std::size_t(SW) * rows_of(m); }
inline std::size_t smem_bytes(int m, int stages) { return std::size_t(stages) * buffer_floats(m) * sizeof(float); }

struct TileGrid {
  int tiles_x, tiles;    // tiles along a row, tiles in all
  bool vec_in, vec_out;  // 16-byte chunks / float4 stores allowed
};

// The column and row of tile `tile` in the tile grid (unsigned: no sign
// fix-up in the division).
struct TileXY {
  int x, y;
};
__device__ inline TileXY tile_xy(int tile, const TileGrid& tg) {
  const unsigned t = unsigned(tile), n = unsigned(tg.tiles_x);
  return {int(t % n), int(t / n)};
}

// A 16-byte cp.async to a 32-bit shared address (the immediate offsets of
// an unrolled walk fold into the instruction), src_bytes in 0..16 (the
// rest zero-filled; 0 reads nothing).
__device__ __forceinline__ void copy_chunk(unsigned dst, const float* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}

// Issues (does not wait for) the copy of a tile's input, halo and zero
// ghosts included, into the buffer at shared address `buf`: shared (r, c)
// is input (y0 + r, x0 + c) with x0 = the tile's first column - PAD and
// y0 = its first row - M / 2. One commit group per call.
//
// A row is 34 chunks of 16 bytes: warp w copies chunks 0-31 of rows w,
// w + 8, ... (lane l chunk l), and thread t < 2 SH the chunk 32 + t % 2 of
// row t / 2. A tile whose input lies inside the image (all but the border
// tiles) takes the path without tests: a 64-bit pointer step and one
// LDGSTS a row, ~100 instructions a 9x9 tile per thread with the tile's
// address set-up (a flat chunk walk with a test per chunk compiled to ~50
// instructions a chunk, ~500 a tile: one issue slot in six next to its
// 2,592 FFMA). Border tiles test each
// chunk: inside floats 0 (ghost), 1-3 (right edge: the rest zero-filled by
// the copy) or 4; x0 is a multiple of 4, so the left edge never splits a
// chunk.
template <int M>
__device__ inline void copy_tile(unsigned buf, TileXY t, const TileGrid& tg, const float* __restrict__ in,
                                 const gpu::Geometry& g) {
  constexpr int SH = rows_of(M), ROW_STEPS = (SH + BY - 1) / BY, EXTRA = CHUNKS_PER_ROW - BX;
  static_assert(EXTRA * SH <= THREADS, "one extra chunk per thread at most");
  const int x0 = t.x * TILE_W - PAD;  // int: supports() keeps the image under 2^30 a side
  const int y0 = t.y * TILE_H - M / 2;
  const int lane = threadIdx.x, warp = threadIdx.y, tid = warp * BX + lane;
  // The extra chunk of this thread: row er, chunk ec.
  const int er = tid / EXTRA, ec = BX + tid % EXTRA;
  const bool has_extra = tid < EXTRA * SH;
  if (tg.vec_in) {
    const bool interior = x0 >= 0 && x0 + SW <= g.width && y0 >= 0 && y0 + SH <= g.height;
    if (interior) {
      const float* src = in + std::int64_t(y0 + warp) * g.pitch + x0 + 4 * lane;
      const std::int64_t step = BY * g.pitch;
      const unsigned dst = buf + unsigned(warp * SW + 4 * lane) * 4u;
#pragma unroll
      for (int i = 0; i < ROW_STEPS; ++i) {
        if (SH % BY == 0 || i + 1 < ROW_STEPS || warp + BY * i < SH) copy_chunk(dst + i * BY * SW * 4u, src, 16);
        src += step;
      }
      if (has_extra)
        copy_chunk(buf + unsigned(er * SW + 4 * ec) * 4u, in + std::int64_t(y0 + er) * g.pitch + x0 + 4 * ec, 16);
    } else {
      auto chunk = [&](int r, int c) {
        const int y = y0 + r, x = x0 + 4 * c;
        const std::int64_t left = g.width - x;
        const int n = (y >= 0 && y < g.height && x >= 0 && left > 0) ? int(left < 4 ? left : 4) : 0;
        const unsigned dst = buf + unsigned(r * SW + 4 * c) * 4u;
        const float* src = n > 0 ? in + std::int64_t(y) * g.pitch + x : in;
        if (n == 4 || n == 0) {
          copy_chunk(dst, src, 4 * n);
        } else {
          // A chunk 1-3 floats inside the right edge of the image's last
          // row may end past the allocation: copy its inside floats one by
          // one (a 16-byte copy with a shorter source size is still a
          // 16-byte access to memcheck), zero-filling the rest.
#pragma unroll
          for (int k = 0; k < 4; ++k)
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst + 4u * k), "l"(k < n ? src + k : in),
                         "r"(k < n ? 4 : 0)
                         : "memory");
        }
      };
#pragma unroll 1
      for (int r = warp; r < SH; r += BY) chunk(r, lane);
      if (has_extra) chunk(er, ec);
    }
  } else {
#pragma unroll 1
    for (int r = warp; r < SH; r += BY) {
      const int y = y0 + r;
      const bool row_in = y >= 0 && y < g.height;
      const float* row = in + std::int64_t(row_in ? y : 0) * g.pitch;
      for (int c = lane; c < SW; c += BX) {
        const int x = x0 + c;
        const bool inside = row_in && x >= 0 && x < g.width;
        const unsigned dst = buf + unsigned(r * SW + c) * 4u;
        const int bytes = inside ? 4 : 0;
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(inside ? row + x : in), "r"(bytes)
                     : "memory");
      }
    }
  }
  tessera::gpu::cp_async_commit();
}

// product: two shared buffers (the next tile's copy in flight during this
// tile's FMAs), the FMA loop unrolled over the window's rows (9x9: 2,592
// FFMA in ~41 KB of straight code). single_buffer (lab): copy, wait,
// compute: only the other resident blocks overlap an SM's copies with its
// FMAs. rolled_rows (lab): the product with a loop over the mask's rows
// (not unrolled: ~5 KB of code for 9x9, in case the instruction caches
// limit the straight version) that reloads each window row for every mask
// row it meets (9x9: 216 LDS.128 instead of 48) and the row's taps (LDC).
//
// Tile walk: the product takes its tiles after the first from a counter in
// the workspace (atomicAdd), so an SM whose blocks finish early takes more
// tiles (the measured 5x5 profile: SM active cycles 91 % of elapsed on
// average, the least busy SM 24 % under the average, the busiest 7 % over).
// static_walk (lab) and the other lab modes keep the fixed stride walk
// (tile, tile + grid, ...): static_walk is the control of the dynamic walk.
enum class Mode { product, single_buffer, rolled_rows, static_walk };
constexpr int stages_of(Mode mode) { return mode == Mode::single_buffer ? 1 : 2; }
constexpr bool dynamic_walk(Mode mode) { return mode == Mode::product; }

template <int M, Mode MODE>
__global__ __launch_bounds__(THREADS, stages_of(MODE) == 2 ? 2 : 3) void conv_pipelined_tiles_kernel(
    const __grid_constant__ SquareTaps<M> m, const float* __restrict__ in, float* __restrict__ out, gpu::Geometry g,
    TileGrid tg, unsigned* __restrict__ tile_counter) {
  constexpr int RX = M / 2;
  // The window of a thread's 4 columns in its shared row: columns
  // 4 tx + PAD - RX ... 4 tx + PAD + 3 + RX, read as the float4s that cover
  // them: FIRST..LAST (relative to 4 tx, in float4s), OFF = the window's
  // first column within them.
  constexpr int FIRST = (PAD - RX) / 4, LAST = (PAD + 3 + RX) / 4, NV = LAST - FIRST + 1;
  constexpr int OFF = PAD - RX - 4 * FIRST;
  static_assert(M % 2 == 1 && M <= MAX_MASK, "square odd masks up to 9");
  constexpr int STAGES = stages_of(MODE);
  extern __shared__ float4 smem4[];  // float4: 16-byte alignment of the buffers
  float* const smem = reinterpret_cast<float*>(smem4);
  constexpr int BUF = int(buffer_floats(M));  // buffer `stage` is smem + stage * BUF

  const unsigned smem_addr = unsigned(__cvta_generic_to_shared(smem));
  constexpr bool DYNAMIC = dynamic_walk(MODE);
  static_assert(!DYNAMIC || STAGES == 2, "the ticket is drawn in the two-buffer copy step");
  // Dynamic walk: the block's first tile is blockIdx.x, the rest come from
  // the counter (ticket k -> tile gridDim.x + k; tickets past the last tile
  // end the walk). The ticket of the tile after next is drawn once the next
  // tile's copy is issued and published after this tile's FMAs (the
  // atomic's latency hides behind them) through one of two shared slots: slot r & 1 is written before
  // round r's second barrier and read after it, and written again only in
  // round r + 2, after every thread passed round r + 1's first barrier.
  __shared__ int next_tile_slot[2];
  const bool leader = threadIdx.x == 0 && threadIdx.y == 0;
  int tile = blockIdx.x;           // grid <= tiles: every block has one
  TileXY cur = tile_xy(tile, tg);  // carried from round to round: one division a tile
  int next = tile + int(gridDim.x);  // no overflow: tiles <= 2^30 (launch), grid <= tiles
  if constexpr (DYNAMIC) {
    if (leader) next_tile_slot[1] = int(gridDim.x + atomicAdd(tile_counter, 1u));
    __syncthreads();
    next = next_tile_slot[1];
  }
  if constexpr (STAGES == 2) copy_tile<M>(smem_addr, cur, tg, in, g);
  int stage = 0, parity = 0;
  while (tile < tg.tiles) {
    const TileXY nxt = tile_xy(next, tg);
    unsigned ticket = 0;  // the leader's, for the tile after next
    if constexpr (STAGES == 2) {
      // The next tile's copy goes out before this one's FMAs. An empty
      // group at the end keeps "all but the newest group" meaning "this
      // tile".
      if (next < tg.tiles) {
        copy_tile<M>(smem_addr + unsigned((stage ^ 1) * BUF) * 4u, nxt, tg, in, g);
      } else {
        tessera::gpu::cp_async_commit();
      }
      // Here rather than first in the round: the FMA loop is the same
      // either way, but ptxas gives the kernel 96 registers instead of 123.
      if constexpr (DYNAMIC) {
        if (leader && next < tg.tiles) ticket = atomicAdd(tile_counter, 1u);
      }
      tessera::gpu::cp_async_wait<1>();
    } else {
      copy_tile<M>(smem_addr, cur, tg, in, g);
      tessera::gpu::cp_async_wait<0>();
    }
    __syncthreads();

    float acc[CY][CX];
#pragma unroll
    for (int o = 0; o < CY; ++o)
#pragma unroll
      for (int c = 0; c < CX; ++c) acc[o][c] = 0.0f;
    const float* base = smem + stage * BUF + threadIdx.y * CY * SW + 4 * (threadIdx.x + FIRST);
    if constexpr (MODE != Mode::rolled_rows) {
#pragma unroll
      for (int iy = 0; iy < CY + M - 1; ++iy) {
        float v[4 * NV];
#pragma unroll
        for (int k = 0; k < NV; ++k) {
          const float4 p = *reinterpret_cast<const float4*>(base + iy * SW + 4 * k);
          v[4 * k] = p.x;
          v[4 * k + 1] = p.y;
          v[4 * k + 2] = p.z;
          v[4 * k + 3] = p.w;
        }
#pragma unroll
        for (int o = 0; o < CY; ++o) {
          const int ky = iy - o;
          if (ky >= 0 && ky < M) {
#pragma unroll
            for (int kx = 0; kx < M; ++kx)
#pragma unroll
              for (int c = 0; c < CX; ++c) acc[o][c] = fmaf(m.w[ky * M + kx], v[OFF + kx + c], acc[o][c]);
          }
        }
      }
    } else {
#pragma unroll 1
      for (int ky = 0; ky < M; ++ky) {
        float w[M];
#pragma unroll
        for (int kx = 0; kx < M; ++kx) w[kx] = m.w[ky * M + kx];
#pragma unroll
        for (int o = 0; o < CY; ++o) {
          float v[4 * NV];
#pragma unroll
          for (int k = 0; k < NV; ++k) {
            const float4 p = *reinterpret_cast<const float4*>(base + (o + ky) * SW + 4 * k);
            v[4 * k] = p.x;
            v[4 * k + 1] = p.y;
            v[4 * k + 2] = p.z;
            v[4 * k + 3] = p.w;
          }
#pragma unroll
          for (int kx = 0; kx < M; ++kx)
#pragma unroll
            for (int c = 0; c < CX; ++c) acc[o][c] = fmaf(w[kx], v[OFF + kx + c], acc[o][c]);
        }
      }
    }

    const std::int64_t x = std::int64_t(cur.x) * TILE_W + CX * threadIdx.x;
    const std::int64_t y_first = std::int64_t(cur.y) * TILE_H + CY * threadIdx.y;
    float* dst = out + y_first * g.pitch + x;
    if (tg.vec_out && x + CX <= g.width && y_first + CY <= g.height) {
      // All 8 rows, one float4 each (explicit vector stores: a float4
      // assignment next to the scalar branch was merged into four STG.32).
#pragma unroll
      for (int o = 0; o < CY; ++o)
        __stcg(reinterpret_cast<float4*>(dst + o * g.pitch), make_float4(acc[o][0], acc[o][1], acc[o][2], acc[o][3]));
    } else {
#pragma unroll
      for (int o = 0; o < CY; ++o)
        if (y_first + o < g.height) {
#pragma unroll
          for (int c = 0; c < CX; ++c)
            if (x + c < g.width) dst[o * g.pitch + c] = acc[o][c];
        }
    }
    if constexpr (DYNAMIC) {
      if (leader) next_tile_slot[parity] = next < tg.tiles ? int(gridDim.x + ticket) : tg.tiles;
    }
    // Every thread is done reading buffer `stage` before a later round
    // copies into it (two buffers: the tile after next; one: the next).
    __syncthreads();
    int after_next;
    if constexpr (DYNAMIC) {
      after_next = next_tile_slot[parity];  // <= tiles + tickets: below 2^31
      parity ^= 1;
    } else {
      after_next = next < tg.tiles ? next + int(gridDim.x) : tg.tiles;  // below 2^31
    }
    if constexpr (STAGES == 2) stage ^= 1;
    tile = next;
    cur = nxt;
    next = after_next;
  }
  tessera::gpu::cp_async_wait<0>();  // nothing in flight at exit (two buffers: the last group is empty)
}

template <int M, Mode MODE>
int resident_blocks(const char* name) {
  return tessera::gpu::resident_blocks_per_sm(reinterpret_cast<const void*>(conv_pipelined_tiles_kernel<M, MODE>),
                                              THREADS, smem_bytes(M, stages_of(MODE)), name);
}

// Persistent blocks: as many as fit on the device at once, at most one per
// tile.
template <int M, Mode MODE>
void launch(const char* name, const ConvCall& call) {
  const ConvSpec& s = call.spec;
  SquareTaps<M> m{};
  for (int i = 0; i < M * M; ++i) m.w[i] = call.host_mask[i];  // by value in the launch: graph-capturable
  TileGrid tg{};
  const std::size_t tiles_x = (s.width + TILE_W - 1) / TILE_W, tiles_y = (s.height + TILE_H - 1) / TILE_H;
  if (tiles_x * tiles_y > (std::size_t(1) << 30))  // tile + gridDim.x stays an int
    throw Error("convolution pipelined_tiles: " + std::to_string(s.width) + " x " + std::to_string(s.height) +
                " needs more than 2^30 tiles of 128 x 64");
  tg.tiles_x = int(tiles_x);
  tg.tiles = int(tiles_x * tiles_y);
  const bool pitch4 = s.pitch % 4 == 0;
  tg.vec_in = pitch4 && reinterpret_cast<std::uintptr_t>(call.in) % 16 == 0;
  tg.vec_out = pitch4 && reinterpret_cast<std::uintptr_t>(call.out) % 16 == 0;
  const std::size_t smem = smem_bytes(M, stages_of(MODE));
  const std::size_t resident = std::size_t(resident_blocks<M, MODE>(name)) * std::size_t(tessera::gpu::sm_count());
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>(resident, std::size_t(tg.tiles)));
  unsigned* counter = nullptr;
  if constexpr (dynamic_walk(MODE)) {
    if (call.workspace == nullptr)
      throw Error(std::string(name) + ": the dynamic tile walk needs a workspace of " +
                  std::to_string(WALK_WORKSPACE_BYTES) + " bytes (call.workspace is null)");
    counter = static_cast<unsigned*>(call.workspace);
    // Zeroed on the stream each call (graph-capturable: a memset node).
    TESSERA_CUDA(cudaMemsetAsync(counter, 0, sizeof(unsigned), call.stream));
  }
  detail::launch(name, conv_pipelined_tiles_kernel<M, MODE>, dim3(blocks), dim3(BX, BY), smem, call.stream, s.outputs(),
                 m, call.in, call.out, gpu::geometry(s, TILE_W), tg, counter);
}

// The rung's limits (both instantiations): square odd masks up to 9, sides
// under 2^30 (int tile coordinates).
inline bool supports(const ConvSpec& s) {
  constexpr std::size_t SIDE_LIMIT = std::size_t(1) << 30;
  return s.mask_w == s.mask_h && s.mask_w % 2 == 1 && s.mask_w <= std::size_t(MAX_MASK) && s.width < SIDE_LIMIT &&
         s.height < SIDE_LIMIT;
}

// run / prepare for MODE, switching on the mask size.
template <Mode MODE>
void run(const ConvCall& call, const char* const (&names)[5]) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  switch (s.mask_w) {
    case 1:
      return launch<1, MODE>(names[0], call);
    case 3:
      return launch<3, MODE>(names[1], call);
    case 5:
      return launch<5, MODE>(names[2], call);
    case 7:
      return launch<7, MODE>(names[3], call);
    case 9:
      return launch<9, MODE>(names[4], call);
    default:
      throw Error(std::string(names[0]) + ": square masks of 1, 3, 5, 7 or 9 taps only");
  }
}

template <Mode MODE>
void prepare(const ConvSpec& s, const char* const (&names)[5]) {
  switch (s.mask_w) {
    case 1:
      resident_blocks<1, MODE>(names[0]);
      break;
    case 3:
      resident_blocks<3, MODE>(names[1]);
      break;
    case 5:
      resident_blocks<5, MODE>(names[2]);
      break;
    case 7:
      resident_blocks<7, MODE>(names[3]);
      break;
    case 9:
      resident_blocks<9, MODE>(names[4]);
      break;
    default:
      break;
  }
  (void)tessera::gpu::sm_count();
}

}  // namespace tessera::convolution_impl::pipelined
