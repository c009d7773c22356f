// Step 2 — the naive transposes, one element per thread, no shared memory
// (seed 000 "Transpose", Baseline: naiveGmem, "lower bound"; seed 004 Ex 3,
// Transpose_v0).
//
// naive_strided_write: a 32 x 8 block; thread (x, y) reads input element
// (row y, column x) and writes it to output (row x, column y). A warp reads 32
// consecutive elements of one input row (one 128-byte line) and writes them
// down one output column: 32 different lines, one 32-byte sector each for 4
// bytes of data. Bottleneck: the scattered writes — 8x the sectors the data
// needs through L1/L2, and output lines are assembled in L2 from 32 warps'
// partial writes. The seed's lower bound. Expected ~30-40% of copy
// bandwidth for floats (8x amplification is partly absorbed by L2, which
// merges the partial sectors before they go to DRAM).
//
// naive_strided_read: the mirror image: the block's x runs down the input's
// rows, so a warp writes 32 consecutive output elements (one line) and reads
// 32 elements down one input column. The other 7 warps of the block read the
// neighbouring columns, i.e. the rest of the same 32-byte sectors, mostly from
// L1: on Hopper strided reads cost far less than strided writes (reads of a
// whole sector are cached and reused; writes are not merged in L1). Expected
// ~50-65% of copy bandwidth for floats — the difference between the two
// naive kernels is the lesson of this step.
#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/tile.cuh"

namespace tessera::transpose_impl {

namespace {

using gpu::Grid2D;

// A warp is 32 threads along x; 8 warps per block: 256 threads, 8 blocks per
// SM fill the 2048 thread slots of an sm_90 SM.
constexpr int NAIVE_X = 32;
constexpr int NAIVE_Y = 8;

// Which side of the transpose is strided.
enum class Strided {
  write,  // a warp reads along an input row, writes down an output column
  read,   // a warp reads down an input column, writes along an output row
};

// One element per thread. Strided::write: tiles of NAIVE_Y input rows x
// NAIVE_X input columns, x along the columns. Strided::read: tiles of NAIVE_X
// input rows x NAIVE_Y input columns, x down the rows.
template <class W, Strided S>
__global__ __launch_bounds__(NAIVE_X* NAIVE_Y) void transpose_naive_kernel(const W* __restrict__ in,
                                                                          W* __restrict__ out, Grid2D g) {
  const gpu::TileIndex t = gpu::RowMajorOrder::tile_of(blockIdx.x, g.tiles_x, g.tiles_y);
  const bool along_rows = S == Strided::write;
  const std::size_t col = static_cast<std::size_t>(t.x) * (along_rows ? NAIVE_X : NAIVE_Y) +
                          (along_rows ? threadIdx.x : threadIdx.y);
  const std::size_t row = static_cast<std::size_t>(t.y) * (along_rows ? NAIVE_Y : NAIVE_X) +
                          (along_rows ? threadIdx.y : threadIdx.x);
  if (row < g.rows && col < g.cols) out[col * g.ld_out + row] = in[row * g.ld_in + col];
}

template <Strided S>
void run_naive(const char* kernel, const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  const Grid2D g = S == Strided::write ? gpu::make_grid(s, NAIVE_Y, NAIVE_X, kernel)
                                       : gpu::make_grid(s, NAIVE_X, NAIVE_Y, kernel);
  gpu::with_word(s, kernel, [&]<class W>() {
    detail::launch(kernel, transpose_naive_kernel<W, S>, dim3(gpu::blocks_of(g)), dim3(NAIVE_X, NAIVE_Y), 0,
                   call.stream, s.rows * s.cols, static_cast<const W*>(call.in), static_cast<W*>(call.out), g);
  });
}

}  // namespace

void run_naive_strided_write(const TransposeCall& call) {
  run_naive<Strided::write>("transpose_naive_kernel<strided write>", call);
}

void run_naive_strided_read(const TransposeCall& call) {
  run_naive<Strided::read>("transpose_naive_kernel<strided read>", call);
}

}  // namespace tessera::transpose_impl
