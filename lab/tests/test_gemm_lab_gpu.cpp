// The gemm lab's tuning rows (lab/gemm/): the warp-tiled sweep and the
// stream-K tail, checked against the long-double reference of
// tests/gemm_test_support.hpp. CUDA builds only; the GPU tests skip without
// a device.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "families/gemm/contract.hpp"
#include "families/gemm/policy.hpp"
#include "gemm/warp_tiled_sweep.hpp"
#include "gemm_test_support.hpp"

namespace {

using namespace tessera;
using gemm_impl::GemmCall;
using gemm_impl::GemmVariant;
using gemm_test::GpuCase;
using gemm_test::Shape;
using GemmLabGpu = gemm_test::GpuTest;

std::vector<const GemmVariant*> tuning_rows() {
  return gemm_test::rows_where([](const VariantInfo& v) { return v.role == Role::tuning; });
}

// The lab's rows joined the ladder: every sweep row, the split-k rows and
// the stream-K row, all tuning rows of step 10, named in words.
TEST(GemmLab, RowsJoinedTheLadder) {
  const auto sweep = gemm_lab::warp_tiled_sweep();
  const auto splits = gemm_lab::warp_tiled_split_k_rows();
  EXPECT_EQ(tuning_rows().size(), sweep.size() + splits.size() + 1);
  EXPECT_EQ(splits.size(), 5 * gemm_impl::policy::WARP_TILED_TILE_COUNT);  // S = 2, 3, 4, 6, 8 per tile
  for (const auto& row : splits) {
    SCOPED_TRACE(std::string(row.info.name));
    EXPECT_NE(gemm_impl::variants_ladder().find(row.info.name), nullptr);
    EXPECT_NE(row.info.name.find("_split"), std::string_view::npos);
    EXPECT_GT(row.workspace_bytes(gemm_impl::GemmSpec{gemm_impl::GemmOp::ab, 64, 64, 64, 64, 64, 64}), 0u);
  }
  std::set<std::string_view> names;
  for (const auto& e : sweep) {
    SCOPED_TRACE(std::string(e.row.info.name));
    EXPECT_TRUE(names.insert(e.row.info.name).second);
    const GemmVariant* in_ladder = gemm_impl::variants_ladder().find(e.row.info.name);
    ASSERT_NE(in_ladder, nullptr);
    EXPECT_EQ(in_ladder->run, e.row.run);
    EXPECT_EQ(e.row.info.role, Role::tuning);
    EXPECT_EQ(e.row.info.step, 10);
    EXPECT_EQ(e.row.run, e.kernels.run_ab);
    EXPECT_EQ(e.row.info.name.rfind("warp_tiled_", 0), 0u);
  }
  EXPECT_NE(gemm_impl::variants_ladder().find("warp_tiled_128x128x16_stream_k"), nullptr);
}

// Each configuration the product dispatches among has the lab row that
// measures its rate (policy.hpp), running the product's own kernels.
TEST(GemmLab, EveryProductTileHasItsRow) {
  const auto kernels = gemm_impl::warp_tiled_kernels();
  for (std::size_t i = 0; i < gemm_impl::policy::WARP_TILED_TILE_COUNT; ++i) {
    const std::string name = "warp_tiled_" + std::string(gemm_impl::policy::WARP_TILED_TILES[i].name);
    SCOPED_TRACE(name);
    const GemmVariant* row = gemm_impl::variants_ladder().find(name);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->run, kernels[i].run_ab);
  }
}

TEST_F(GemmLabGpu, EveryTuningRowEveryShape) {
  std::uint64_t seed = 100;
  for (const Shape& s : gemm_test::kGpuShapes) {
    GpuCase c(s, seed += 10);
    for (const GemmVariant* v : tuning_rows()) {
      if (!v->supports(c.spec)) continue;
      SCOPED_TRACE(std::string(v->info.name) + " " + gemm_test::shape_name(s));
      EXPECT_TRUE(c.matches(c.run(*v, stream())));
    }
  }
}

// Each configuration of the sweep at its tile edges, and for A*A^T when
// square (the sweep's rows are A*B only; the symmetric kernels run here).
TEST_F(GemmLabGpu, SweepConfigurationsAtTheirTileEdges) {
  const GemmVariant& ab = gemm_impl::variants_ladder().at("warp_tiled", "test");
  const GemmVariant& aat = gemm_impl::variants_ladder().at("aat_warp_tiled", "test");
  for (const auto& e : gemm_lab::warp_tiled_sweep())
    gemm_test::check_configuration(std::string(e.row.info.name), e.kernels, ab, aat, stream());
}

// ---- stream-K (warp_tiled_128x128x16_stream_k) ---------------------------------

// Shapes whose 128 x 128 tiles do not fill whole waves of the device's
// resident blocks (2 per SM), so that the stream-K variant splits tiles by
// k: a ragged k, several tile columns, a tiny remainder (S + 3 tiles) with
// padded leading dimensions, 4-byte B copies and beta; and shapes it must
// run data-parallel (k < 16, T % S == 0, T < S). The reference is the slow
// long-double one: the shapes are thin to keep it to a few seconds.
struct StreamKShape {
  Shape shape;
  bool split;  // expected to share tiles out by k
};
std::vector<StreamKShape> stream_k_shapes(std::size_t slots) {
  const std::size_t tiles_1_5 = (3 * slots / 2 + 1) / 2;  // tile rows for ~1.5 waves of 2 tile columns
  return {
      {{false, tiles_1_5 * 128 - 3, 130, 250}, true},
      {{false, (slots + 3) * 128 - 50, 64, 160, 3, 1, 5, 0.75f, -0.5f}, true},
      {{false, tiles_1_5 * 128 - 3, 130, 9}, false},  // one slab per tile: nothing to split
      {{false, slots * 128, 100, 40}, false},        // T == S
      {{false, 1000, 3000, 7}, false},                // T < S
  };
}

// The resident block slots the stream-K plan assumes: 2 blocks per SM.
std::size_t resident_slots() {
  int device = 0, sms = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return 2 * std::size_t(sms);
}

TEST_F(GemmLabGpu, StreamKSplitTilesMatchAndRepeatBitwise) {
  const GemmVariant& v = gemm_lab::warp_tiled_stream_k_row();
  std::uint64_t seed = 600;
  for (const StreamKShape& sk : stream_k_shapes(resident_slots())) {
    SCOPED_TRACE(gemm_test::shape_name(sk.shape));
    GpuCase c(sk.shape, seed += 10);
    const auto split = gemm_lab::warp_tiled_stream_k_split(c.spec);
    EXPECT_EQ(split.sk_blocks > 0, sk.split) << split.sk_blocks << " stream-K blocks, " << split.sk_tiles
                                             << " tiles, " << split.iters << " slabs per tile";
    if (split.sk_blocks > 0) {
      EXPECT_GT(v.workspace_bytes(c.spec), 0u);
    }
    const auto first = c.run(v, stream());
    EXPECT_TRUE(c.matches(first));
    if (!sk.split) continue;
    const auto again = c.run(v, stream());  // the workspace re-poisoned, the arrivals in another order
    ASSERT_EQ(first.size(), again.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < first.size(); ++i) differ += std::memcmp(&first[i], &again[i], sizeof(float)) != 0;
    EXPECT_EQ(differ, 0u) << "elements that differ between two runs";
  }
}

// The split path (counters memset + one kernel) captured in a graph and
// replayed twice, the workspace re-poisoned before each: each replay must
// zero its counters itself. C is reset to C0 before each (beta != 0).
TEST_F(GemmLabGpu, StreamKRunIsGraphCapturable) {
  const GemmVariant& v = gemm_lab::warp_tiled_stream_k_row();
  GpuCase c(stream_k_shapes(resident_slots())[1].shape, 77);
  (void)c.run(v, stream());  // first run prepares the kernel
  DeviceBytes ws(v.workspace_bytes(c.spec), "test workspace");
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  cudaGraph_t graph = nullptr;
  TESSERA_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
  v.run(GemmCall{c.spec, c.s.alpha, c.s.beta, c.da.data(), c.db.data(), c.dc.data(), ws.data(), stream()});
  TESSERA_CUDA(cudaStreamEndCapture(stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    ws.fill_bytes(0x5A + replay, stream());
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    c.dc.upload(c.c0.v.data(), c.c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    TESSERA_CUDA(cudaGraphLaunch(exec, stream()));
    EXPECT_TRUE(c.matches(c.download(stream()))) << "replay " << replay;
  }
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
}

}  // namespace
