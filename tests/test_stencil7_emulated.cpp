// temporal_blocking's block (families/stencil7/temporal_kernel.cuh) run on
// CPU threads: the very source the GPU compiles, with threadIdx, blockIdx
// and __syncthreads supplied here (one OS thread per CUDA thread of a block,
// a std::barrier for the block's barrier; the blocks one after the other).
// One pass of STEPS fused sweeps against the definition (long double triple
// loop) on random grids: float STEPS = 4, 2, 1 and double 2, 1, through
// every kind of step: the guarded steps at the ends of the z walk, the
// steady steps of tiles touching the grid's faces (selects), and the steady
// steps of tiles wholly inside it (no test), on grids from 3 x 3 x 3 to
// several tiles and two z chunks. Runs without a GPU, so every build checks
// the kernel's indexing, rotation and boundary logic.
#include <gtest/gtest.h>

#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "stencil7_test_support.hpp"

// What a CUDA build provides to device code, for the host.
namespace {
struct Index3 {
  unsigned x = 0, y = 0, z = 0;
};
thread_local Index3 threadIdx, blockIdx;
std::barrier<>* block_barrier = nullptr;
void __syncthreads() { block_barrier->arrive_and_wait(); }
}  // namespace

#include "families/stencil7/temporal_kernel.cuh"

namespace {

using stencil7_test::C0;
using stencil7_test::C1;
using stencil7_test::Grid;
namespace temporal = tessera::stencil7_impl::temporal;

// One pass of STEPS fused sweeps, in -> out, every block of the launch.
template <class T, int STEPS>
std::vector<T> emulate_pass(const std::vector<T>& in, const Grid& g, std::size_t slots) {
  const temporal::PassShape shape = temporal::pass_shape<STEPS>(g.nx, g.ny, g.nz, sizeof(T), slots);
  std::vector<T> out(in.size(), T(-777));  // not a value a sweep of these inputs gives
  std::vector<T> smem(temporal::smem_elems<STEPS>());
  constexpr unsigned THREADS = temporal::PX * temporal::TY;
  std::barrier<> barrier(THREADS);
  block_barrier = &barrier;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < THREADS; ++t)
    threads.emplace_back([&, t] {
      threadIdx = {t % temporal::PX, t / temporal::PX, 0};
      for (unsigned by = 0; by < shape.blocks_y; ++by)
        for (unsigned bx = 0; bx < shape.blocks_x; ++bx) {
          blockIdx = {bx, by, 0};
          temporal::run_block<T, STEPS>(in.data(), out.data(), shape.grid, T(C0), T(C1), smem.data());
        }
    });
  for (auto& th : threads) th.join();
  block_barrier = nullptr;
  return out;
}

// slots: the resident blocks pass_shape fits its z chunks to (0: chunks of
// ZCHUNK planes).
template <class T, int STEPS>
void check(const Grid& g, unsigned seed, std::size_t slots = 0) {
  const std::vector<T> in = stencil7_test::random_grid<T>(g, seed);
  const std::vector<T> got = emulate_pass<T, STEPS>(in, g, slots);
  const std::string what = "emulated " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" +
                           std::to_string(g.nz) + " STEPS=" + std::to_string(STEPS) +
                           (sizeof(T) == 4 ? " float" : " double");
  stencil7_test::expect_matches(got, stencil7_test::expected(in, g, STEPS, C0, C1), in, g, STEPS, what);
}

// Grids: the smallest; thin in x, y or z (no steady step, or only guarded
// ones); odd sizes of one tile; several tiles in x and y with interior tiles
// (float STEPS = 4: a tile is 64 x 32 with a 56 x 24 interior, so 180 x 80
// has 2 x 2 tiles wholly inside the grid) and a steady z range that is not a
// multiple of the 3-step unroll; two z chunks (nz > 128), with and without
// a tile inside the grid.
const Grid SMALL[] = {{3, 3, 3}, {3, 100, 7}, {37, 19, 23}, {130, 7, 9}, {5, 4, 20}};
const Grid INTERIOR = {180, 80, 23};
const Grid TWO_CHUNKS = {9, 6, 140};
const Grid INTERIOR_TWO_CHUNKS = {130, 60, 135};  // one tile inside the grid, in both chunks

TEST(Stencil7Emulated, FloatFourSweeps) {
  unsigned seed = 1;
  for (const Grid& g : SMALL) check<float, 4>(g, ++seed);
  check<float, 4>(INTERIOR, ++seed);
  check<float, 4>(TWO_CHUNKS, ++seed);
  check<float, 4>(INTERIOR_TWO_CHUNKS, ++seed);
  // 9 tiles on 264 slots: 5 chunks of 27 planes (the last 27), one wave.
  check<float, 4>(INTERIOR_TWO_CHUNKS, ++seed, 264);
}

// The z chunks fill whole waves: 512^3 float on 132 SMs x 2 blocks (6 chunks
// of 86 planes, 1320 blocks = 5 waves), no slots known (chunks of 128), and
// chunk counts that always cover nz.
TEST(Stencil7Emulated, ZChunksFillWaves) {
  const auto shape = temporal::pass_shape<4>(512, 512, 512, 4, 264);
  EXPECT_EQ(shape.blocks_x, 220u);
  EXPECT_EQ(shape.blocks_y, 6u);
  EXPECT_EQ(shape.grid.zchunk, 86);
  EXPECT_EQ(temporal::pass_shape<4>(512, 512, 512, 4).blocks_y, 4u);
  for (std::size_t nz : {3, 31, 33, 128, 129, 135, 512, 1000})
    for (std::size_t slots : {0, 1, 132, 264, 1000}) {
      const auto s = temporal::pass_shape<4>(200, 100, nz, 4, slots);
      EXPECT_GE(std::size_t(s.grid.zchunk) * s.blocks_y, nz) << nz << " " << slots;
      EXPECT_LT(std::size_t(s.grid.zchunk) * (s.blocks_y - 1), nz) << nz << " " << slots;
      EXPECT_LE(s.grid.zchunk, temporal::ZCHUNK);
    }
}

TEST(Stencil7Emulated, FloatTwoAndOneSweeps) {
  unsigned seed = 20;
  for (const Grid& g : SMALL) {
    check<float, 2>(g, ++seed);
    check<float, 1>(g, ++seed);
  }
  check<float, 2>(INTERIOR, ++seed);
  check<float, 1>({130, 60, 11}, ++seed);
}

TEST(Stencil7Emulated, DoubleTwoAndOneSweeps) {
  unsigned seed = 40;
  for (const Grid& g : SMALL) {
    check<double, 2>(g, ++seed);
    check<double, 1>(g, ++seed);
  }
  check<double, 2>(INTERIOR, ++seed);
  check<double, 2>(TWO_CHUNKS, ++seed);
  check<double, 2>(INTERIOR_TWO_CHUNKS, ++seed);
}

}  // namespace
