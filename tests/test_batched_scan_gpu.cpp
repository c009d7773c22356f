// batched_scan on the GPU (skipped without a device): every CUDA rung of the
// product's ladder (seed rungs, the API's picks, the vendor) against the
// independent long double reference of batched_scan_support.hpp, on the
// shapes that break scans (1 sample, warp and tile boundaries, a row that
// fills the fused tile exactly, rows of several tiles, rows past the resident
// capacity), every layout (odd pitches, misaligned bases, in place), every
// direction, inclusive and exclusive, every accumulator the rung supports;
// nothing outside the output rows may change. Then the public API: the
// default variant per length, device pointers, bitwise reproducibility,
// graph capture. The lab's rows: lab/tests/test_batched_scan_tuning_gpu.cpp.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "batched_scan_gpu_support.hpp"
#include "batched_scan_support.hpp"
#include "families/batched_scan/contract.hpp"
#include "families/batched_scan/cuda_rungs.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace tessera;
using batched_scan_impl::ScanCall;
using batched_scan_impl::ScanSpec;
using batched_scan_impl::ScanVariant;
using scan_test::Layout;
using scan_test::random_rows;
using scan_test::gpu::DeviceBuffer;
using scan_test::gpu::TILE;
using tessera_test::device_sync;

// Every CUDA row of the product's ladder.
std::vector<const ScanVariant*> product_rungs() {
  return scan_test::gpu::cuda_rungs({Role::taught, Role::product, Role::vendor});
}

class BatchedScanGpu : public tessera_test::GpuFixture<::testing::Test> {};

TEST_F(BatchedScanGpu, EveryRungMatchesReferenceOnSmallShapes) {
  scan_test::gpu::check_small_shapes(product_rungs(), stream());
}

TEST_F(BatchedScanGpu, TileBoundaries) { scan_test::gpu::check_tile_boundaries(product_rungs(), stream()); }

TEST_F(BatchedScanGpu, ManyRowsPerPersistentBlock) {
  scan_test::gpu::check_many_rows_per_block(product_rungs(), stream());
}

TEST_F(BatchedScanGpu, LongRowsManyTiles) {
  scan_test::gpu::check_long_rows_many_tiles({"multi_tile_resident_self"}, stream());
}

TEST_F(BatchedScanGpu, ResidentRowsUpToCapacity) {
  scan_test::gpu::check_resident_rows_up_to_capacity({"multi_tile_resident_self"}, stream());
}

// forward_backward rows past the resident capacity, several of them: the
// API's long-row rung streams them (multi_tile_streamed's kernel), and every
// phase of the streamed order (a row's scans with the next rows' counts
// between them) runs with the rings full of scans that wait for their row's
// carries.
TEST_F(BatchedScanGpu, StreamedRowsPastCapacity) {
  const scan_test::gpu::PastCapacityRows past(1400);
  const ScanVariant& v = scan_test::gpu::variant("multi_tile_resident_self");
  const ScanDirection d = ScanDirection::forward_backward;
  for (const Layout& l : past.layouts)
    for (Accum a : {Accum::native, Accum::dfloat}) {
      SCOPED_TRACE(scan_test::describe(l, d, false, a));
      ASSERT_TRUE(scan_test::gpu::run_and_check(v, l, d, false, a, past.rows0, stream()));
    }
  // A row of 1,029 tiles: more than 32 chunks of 32 tiles, so the row's
  // level of the two-level carries loops over its chunks (11 M samples).
  const std::size_t long_len = 1029 * TILE - 40;
  const std::vector<float> long_row = random_rows(1, long_len, 1401);
  const Layout long_layout{1, long_len, long_len, long_len, 1, 1};
  for (bool excl : {false, true}) {
    SCOPED_TRACE(scan_test::describe(long_layout, d, excl, Accum::dfloat));
    ASSERT_TRUE(scan_test::gpu::run_and_check(v, long_layout, d, excl, Accum::dfloat, long_row, stream()));
  }
}

// Forward or backward alone past the capacity: chained. Also a row of 1,100
// tiles (35 chunks: the last chunks' carries sum more than 32 chunk totals,
// two rounds of lanes), and the same bits on a second run (deterministic).
TEST_F(BatchedScanGpu, ChainedRowsPastCapacity) {
  scan_test::gpu::check_chained_rows_past_capacity({"multi_tile_resident_self"}, stream());
  const ScanVariant& v = scan_test::gpu::variant("multi_tile_resident_self");
  const std::size_t long_len = 1100 * TILE - 40;
  const std::vector<float> long_row = random_rows(1, long_len, 1451);
  const Layout long_layout{1, long_len, long_len, long_len, 1, 1};
  for (ScanDirection d : {ScanDirection::forward, ScanDirection::backward}) {
    SCOPED_TRACE(scan_test::describe(long_layout, d, false, Accum::native));
    ASSERT_TRUE(scan_test::gpu::run_and_check(v, long_layout, d, false, Accum::native, long_row, stream()));
  }
  const ScanSpec spec{ScanDirection::backward, Accum::native, false, 1, long_len, long_len, long_len, false};
  DeviceBuffer<float> din(long_len), dout(long_len);
  scan_test::gpu::upload(din.p, long_row);
  DeviceBuffer<unsigned char> ws(v.workspace_bytes(spec));
  std::vector<float> runs[2];
  for (auto& r : runs) {
    TESSERA_CUDA(cudaMemset(dout.p, 0, long_len * sizeof(float)));
    v.run(ScanCall{spec, din.p, dout.p, ws.p, stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    r = scan_test::gpu::download(dout.p, long_len);
  }
  ASSERT_EQ(std::memcmp(runs[0].data(), runs[1].data(), long_len * sizeof(float)), 0);
}

// fused_fitted cuts the tile to the row (32 x 12, then 32 x 20 ... 384 x 20,
// one warp apart; float 64 x 12 ... 192 x 12 before 128 x 20): rows that fill
// each tile exactly (len = tile - 3: the worst alignment shift; every
// direction) and rows one sample longer (the next tile), enough rows that the
// blocks cycle their row buffers, at odd pitches and in place.
TEST_F(BatchedScanGpu, FittedTilesAtTheirEdges) {
  const ScanVariant& v = scan_test::gpu::variant("fused_fitted");
  std::vector<std::size_t> tiles;
  for (std::size_t w = 1; w <= 6; ++w) tiles.push_back(32 * w * 12);
  for (std::size_t w = 1; w <= 12; ++w) tiles.push_back(32 * w * 20);
  ASSERT_EQ(tiles.back() - 3, batched_scan_impl::FITTED_MAX_LEN);
  std::uint64_t seed = 1700;
  int k = 0;
  for (std::size_t tile : tiles)
    for (std::size_t len : {tile - 3, tile - 2}) {
      if (len > batched_scan_impl::FITTED_MAX_LEN) {
        ASSERT_FALSE(v.supports(ScanSpec{ScanDirection::forward, Accum::native, false, 1, len, len, len, false}));
        continue;
      }
      const std::size_t rows = std::max<std::size_t>(7, 5'000'000 / len);
      const std::vector<float> rows0 = random_rows(rows, len + 3, ++seed);
      const Layout layout = ++k % 2 == 0 ? Layout{rows, len, len + 1, len + 3, 1, 2}
                                         : Layout{rows, len, len + 3, len + 3, 1, 1, true};
      for (ScanDirection d : scan_test::kDirections)
        for (Accum a : scan_test::kAccums) {
          if (d != ScanDirection::forward_backward && (a == Accum::f64 || a == Accum::kahan)) continue;
          if (len == tile - 2 && (d != ScanDirection::forward_backward || a == Accum::f64 || a == Accum::kahan))
            continue;
          const bool excl = (seed + static_cast<int>(d) + static_cast<int>(a)) % 2 == 0;
          SCOPED_TRACE("fused_fitted rows " + std::to_string(rows) + " " + scan_test::describe(layout, d, excl, a));
          ASSERT_TRUE(scan_test::gpu::run_and_check(v, layout, d, excl, a, rows0, stream()));
        }
    }
}

// Wide accumulators are what the user asked for: on a long trace with a DC
// offset, double and double-float leave only the final rounding to float
// (relative error <= 2^-24, checked with a 2x margin), whatever the path.
TEST_F(BatchedScanGpu, WideAccumulatorsLeaveOnlyTheFinalRounding) {
  const std::size_t len = 100000;
  std::vector<float> rows0(len);
  for (std::size_t i = 0; i < len; ++i) rows0[i] = 1.0f + 0.1f * static_cast<float>((i * 7919) % 101) / 101.0f;
  DeviceBuffer<float> din(len), dout(len);
  scan_test::gpu::upload(din.p, rows0);
  device_sync();
  std::vector<long double> y, s;
  scan_test::reference(rows0.data(), len, ScanDirection::forward, false, y, s);
  auto max_rel = [&](Accum a) {
    batched_scan(din.p, 1, len, dout.p, {.direction = ScanDirection::forward, .accum = a, .stream = stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    const std::vector<float> got = scan_test::gpu::download(dout.p, len);
    long double m = 0;
    for (std::size_t i = 0; i < len; ++i) m = std::max(m, std::fabs(got[i] - y[i]) / std::fabs(y[i]));
    return m;
  };
  EXPECT_LE(max_rel(Accum::dfloat), 0x1.0p-23L);
  EXPECT_LE(max_rel(Accum::f64), 0x1.0p-23L);
  EXPECT_LE(max_rel(Accum::kahan), 0x1.0p-22L);  // Kahan's compensation adds up to 2u
}

// The pipelined rungs of the wide accumulators (two chains per thread, lazy
// sums) on a row that fills the fused tile (fused_fitted's largest).
TEST_F(BatchedScanGpu, PipelinedWideRungsLeaveOnlyTheFinalRounding) {
  scan_test::gpu::check_wide_sums_round_once("fused_pipelined_lazy_bulk", TILE - 3, stream());
  scan_test::gpu::check_wide_sums_round_once("fused_fitted", batched_scan_impl::FITTED_MAX_LEN, stream());
}

// The public call with no variant picks by length and runs on device memory.
TEST_F(BatchedScanGpu, PublicApiDefaultVariantInPlace) {
  const auto fb = ScanDirection::forward_backward;
  EXPECT_EQ(batched_scan_default_variant(9, 128, Accum::dfloat, fb), "short_rows");
  EXPECT_EQ(batched_scan_default_variant(9, 129, Accum::native, fb), "fused_fitted");
  EXPECT_EQ(batched_scan_default_variant(9, 256, Accum::kahan, fb), "short_rows");  // 8 samples per lane
  EXPECT_EQ(batched_scan_default_variant(9, 257, Accum::f64, fb), "fused_fitted");
  EXPECT_EQ(batched_scan_default_variant(9, batched_scan_impl::FITTED_MAX_LEN, Accum::dfloat, fb), "fused_fitted");
  EXPECT_EQ(batched_scan_default_variant(9, 8000, Accum::native, fb), "fused_one_pass");
  EXPECT_EQ(batched_scan_default_variant(9, 8000, Accum::kahan, fb), "fused_pipelined_lazy_bulk");
  EXPECT_EQ(batched_scan_default_variant(9, 10000, Accum::native, fb), "fused_pipelined_bulk");
  EXPECT_EQ(batched_scan_default_variant(9, 100000, Accum::kahan, fb), "multi_tile_resident_self");
  EXPECT_EQ(batched_scan_default_variant(9, 100000, Accum::dfloat, fb), "multi_tile_resident_self");
  for (std::size_t len : {std::size_t{32}, std::size_t{200}, std::size_t{1000}, std::size_t{5000}, std::size_t{8000},
                          std::size_t{10000}, 2 * TILE + 5, std::size_t{500000}}) {
    const std::size_t rows = 7;
    const std::vector<float> rows0 = random_rows(rows, len, 77 + len);
    const Layout l{rows, len, len, len, 0, 0, true};
    DeviceBuffer<float> d(rows * len);
    for (Accum a : scan_test::kAccums) {
      scan_test::gpu::upload(d.p, rows0);
      device_sync();
      const BatchedScanOptions o{.direction = ScanDirection::forward_backward, .accum = a, .stream = stream()};
      batched_scan(d.p, rows, len, d.p, o);
      TESSERA_CUDA(cudaStreamSynchronize(stream()));
      std::vector<float> before = rows0;
      before.push_back(0.0f);  // buffer_elems adds one sentinel past the end
      std::vector<float> after = scan_test::gpu::download(d.p, rows * len);
      after.push_back(0.0f);
      SCOPED_TRACE(batched_scan_default_variant(rows, len, a, o.direction) + " " +
                   scan_test::describe(l, o.direction, false, a));
      ASSERT_TRUE(scan_test::check_output(l, o.direction, false, a, rows0, before, after));
    }
  }
}

// A caller's workspace of batched_scan_workspace_bytes(...) bytes: the call
// allocates nothing, so it can be captured in a graph as it is; a smaller
// one is refused before anything runs.
TEST_F(BatchedScanGpu, PublicApiWithACallersWorkspace) {
  const std::size_t rows = 3, len = 2 * TILE + 9;
  const std::vector<float> rows0 = random_rows(rows, len, 4711);
  DeviceBuffer<float> din(rows * len), dout(rows * len);
  scan_test::gpu::upload(din.p, rows0);
  device_sync();
  BatchedScanOptions o{.accum = Accum::dfloat, .stream = stream()};
  const std::size_t bytes = batched_scan_workspace_bytes(rows, len, o);
  ASSERT_GT(bytes, 0u);  // the long-row rung keeps per-tile totals
  DeviceBuffer<unsigned char> ws(bytes);
  o.workspace = {ws.p, bytes};
  cudaGraph_t graph = nullptr;
  TESSERA_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
  batched_scan(din.p, rows, len, dout.p, o);
  TESSERA_CUDA(cudaStreamEndCapture(stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  TESSERA_CUDA(cudaGraphLaunch(exec, stream()));
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  const Layout l{rows, len, len, len};
  std::vector<float> before(rows * len + 1, 0.0f), after = scan_test::gpu::download(dout.p, rows * len);
  after.push_back(0.0f);
  ASSERT_TRUE(scan_test::check_output(l, o.direction, false, o.accum, rows0, before, after));
  o.workspace.bytes = bytes - 1;
  try {
    batched_scan(din.p, rows, len, dout.p, o);
    ADD_FAILURE() << "a workspace one byte short was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("workspace"), std::string::npos) << e.what();
  }
}

TEST_F(BatchedScanGpu, DeterministicRungsAreBitwiseReproducible) {
  scan_test::gpu::check_bitwise_reproducible(product_rungs(), stream());
}

TEST_F(BatchedScanGpu, RunsCanBeCapturedInAGraph) { scan_test::gpu::check_graph_capture(product_rungs(), stream()); }

}  // namespace
