// The lab's batched_scan rows on the GPU (skipped without a device): every
// tuning row through the checks every CUDA rung passes
// (tests/batched_scan_gpu_support.hpp), the long-row paths alone on rows of
// many tiles and past the resident capacity, the pipelined sweep's wide sums,
// and the bitwise identities the sweep's steps claim (a lean or bulk copy of
// a row's traffic changes no bit).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "batched_scan_gpu_support.hpp"
#include "batched_scan_support.hpp"
#include "families/batched_scan/contract.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace tessera;
using batched_scan_impl::ScanVariant;
using scan_test::Layout;
using scan_test::gpu::TILE;

std::vector<const ScanVariant*> tuning_rungs() { return scan_test::gpu::cuda_rungs({Role::tuning}); }

class BatchedScanTuningGpu : public tessera_test::GpuFixture<::testing::Test> {};

TEST_F(BatchedScanTuningGpu, TheLabAddsItsRows) { EXPECT_EQ(tuning_rungs().size(), 15u); }

TEST_F(BatchedScanTuningGpu, EveryRungMatchesReferenceOnSmallShapes) {
  scan_test::gpu::check_small_shapes(tuning_rungs(), stream());
}

TEST_F(BatchedScanTuningGpu, TileBoundaries) { scan_test::gpu::check_tile_boundaries(tuning_rungs(), stream()); }

TEST_F(BatchedScanTuningGpu, ManyRowsPerPersistentBlock) {
  scan_test::gpu::check_many_rows_per_block(tuning_rungs(), stream());
}

TEST_F(BatchedScanTuningGpu, LongRowsManyTiles) {
  scan_test::gpu::check_long_rows_many_tiles(
      {"multi_tile", "multi_tile_pipelined", "multi_tile_resident", "multi_tile_streamed"}, stream());
}

TEST_F(BatchedScanTuningGpu, ResidentRowsUpToCapacity) {
  scan_test::gpu::check_resident_rows_up_to_capacity({"multi_tile_resident", "multi_tile_streamed"}, stream());
}

// multi_tile_streamed streams every row past the capacity in every
// direction; a row of 1,029 tiles (33 chunks: the row's level of the
// two-level carries loops over its chunks).
TEST_F(BatchedScanTuningGpu, StreamedRowsPastCapacity) {
  const scan_test::gpu::PastCapacityRows past(1400);
  const ScanVariant& v = scan_test::gpu::variant("multi_tile_streamed");
  for (const Layout& l : past.layouts)
    for (Accum a : {Accum::native, Accum::dfloat}) {
      const ScanDirection d = ScanDirection::forward_backward;
      SCOPED_TRACE(scan_test::describe(l, d, false, a));
      ASSERT_TRUE(scan_test::gpu::run_and_check(v, l, d, false, a, past.rows0, stream()));
    }
  const std::size_t long_len = 1029 * TILE - 40;
  const std::vector<float> long_row = scan_test::random_rows(1, long_len, 1401);
  const Layout long_layout{1, long_len, long_len, long_len, 1, 1};
  for (ScanDirection d : scan_test::kDirections) {
    const bool excl = d == ScanDirection::backward;
    SCOPED_TRACE(scan_test::describe(long_layout, d, excl, Accum::dfloat));
    ASSERT_TRUE(scan_test::gpu::run_and_check(v, long_layout, d, excl, Accum::dfloat, long_row, stream()));
  }
}

TEST_F(BatchedScanTuningGpu, ChainedRowsPastCapacity) {
  scan_test::gpu::check_chained_rows_past_capacity({"multi_tile_resident"}, stream());
}

// The sweep's rows for the wide accumulators (one chain per thread, two, four,
// lazy sums) leave only the final rounding on a row that fills the fused tile.
TEST_F(BatchedScanTuningGpu, PipelinedWideRungsLeaveOnlyTheFinalRounding) {
  for (const char* name : {"fused_pipelined_two_blocks", "fused_pipelined_two_chains", "fused_pipelined_two_chains_lean",
                           "fused_pipelined_four_chains_lean", "fused_pipelined_lazy"})
    scan_test::gpu::check_wide_sums_round_once(name, TILE - 3, stream());
}

// The lean tile traffic and the inclusive / exclusive copies change no
// arithmetic: the same bits as two_chains.
TEST_F(BatchedScanTuningGpu, LeanTrafficIsBitwiseTwoChains) {
  scan_test::gpu::expect_bitwise_same("fused_pipelined_two_chains", "fused_pipelined_two_chains_lean",
                                      {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}, stream());
}

// The lazy sums change only double-float and Kahan: float and double are
// two_chains_lean's bits.
TEST_F(BatchedScanTuningGpu, LazyIsBitwiseLeanForFloatAndDouble) {
  scan_test::gpu::expect_bitwise_same("fused_pipelined_two_chains_lean", "fused_pipelined_lazy",
                                      {Accum::native, Accum::f64}, stream());
}

// The product's bulk copies move the same bytes: bitwise the rows they speed
// up, and nothing outside the rows written, at every alignment.
TEST_F(BatchedScanTuningGpu, BulkCopiesAreBitwiseTheirRungs) {
  scan_test::gpu::expect_bitwise_same("fused_pipelined", "fused_pipelined_bulk",
                                      {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}, stream());
  scan_test::gpu::expect_bitwise_same("fused_pipelined_lazy", "fused_pipelined_lazy_bulk",
                                      {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}, stream());
}

TEST_F(BatchedScanTuningGpu, DeterministicRungsAreBitwiseReproducible) {
  scan_test::gpu::check_bitwise_reproducible(tuning_rungs(), stream());
}

TEST_F(BatchedScanTuningGpu, RunsCanBeCapturedInAGraph) {
  scan_test::gpu::check_graph_capture(tuning_rungs(), stream());
}

}  // namespace
