// GEMM with transposed operands and column-major storage on a GPU, and
// warp_tiled's split-k: every op(A), op(B) through warp_tiled (its
// dispatcher and each product configuration pinned, unsplit and split) and
// cublas_sgemm against the independent long-double triple loop of
// gemm_test_support.hpp, edge sizes included (1, 17, 33, 129, k = 0);
// split-k's determinism; the public API in column-major. Skips without a
// device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>
#include <vector>

#include "families/gemm/contract.hpp"
#include "families/gemm/cuda_rungs.hpp"
#include "families/gemm/policy.hpp"
#include "gemm_test_support.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/gemm.hpp"

namespace {

using namespace tessera;
using gemm_impl::GemmCall;
using gemm_impl::GemmVariant;
using gemm_test::GpuCase;
using gemm_test::Shape;
using GemmOpsGpu = gemm_test::GpuTest;

constexpr bool kOps[4][2] = {{false, false}, {true, false}, {false, true}, {true, true}};

Shape with_ops(Shape s, bool ta, bool tb) {
  s.ta = ta;
  s.tb = tb;
  return s;
}

// Edge sizes: 1, 17, 33, 129, k = 0 (C = beta C), a ragged grid of every
// configuration, padded and odd leading dimensions (4-byte copies of the
// transposed rows), alpha / beta.
const Shape kEdgeShapes[] = {
    {false, 1, 1, 1},
    {false, 17, 17, 17},
    {false, 33, 17, 65, 1, 0, 3},
    {false, 17, 33, 129, 0, 1, 0, 0.75f, -0.5f},
    {false, 129, 33, 17},
    {false, 5, 3, 0, 0, 0, 0, 1, 0.5f},
    {false, 129, 129, 129, 3, 1, 1},
    {false, 257, 130, 131, 4, 4, 4, -1.25f, 1},
    {false, 1, 300, 33},
    {false, 300, 1, 33},
};

TEST_F(GemmOpsGpu, WarpTiledAndCublasEveryOpAtEdgeSizes) {
  std::uint64_t seed = 500;
  for (const char* name : {"warp_tiled", "cublas_sgemm"}) {
    const GemmVariant& v = gemm_impl::variants_ladder().at(name, "test");
    for (const auto& op : kOps)
      for (const Shape& base : kEdgeShapes) {
        const Shape s = with_ops(base, op[0], op[1]);
        SCOPED_TRACE(std::string(name) + " " + gemm_test::shape_name(s));
        GpuCase c(s, seed += 7);
        ASSERT_TRUE(v.supports(c.spec));
        EXPECT_TRUE(c.matches(c.run(v, stream())));
      }
  }
}

// Each product configuration pinned, every op, unsplit and in 2 and 3 k
// slices (ragged slices: the slab count is not a multiple), at its tile
// edges.
TEST_F(GemmOpsGpu, EveryConfigurationEveryOpEverySplit) {
  const auto kernels = gemm_impl::warp_tiled_kernels();
  std::uint64_t seed = 900;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& k = kernels[i];
    ASSERT_NE(k.run_ab_split, nullptr);
    for (const auto& op : kOps)
      for (Shape base : gemm_test::tile_edge_shapes(k))
        for (unsigned splits : {1u, 2u, 3u}) {
          const Shape s = with_ops(base, op[0], op[1]);
          SCOPED_TRACE(std::string(gemm_impl::policy::WARP_TILED_TILES[i].name) + " " + gemm_test::shape_name(s) +
                       " splits " + std::to_string(splits));
          GpuCase c(s, seed += 3);
          const auto got = c.run_with(gemm_impl::warp_tiled_split_workspace_bytes(c.spec, splits), stream(),
                                      [&](const GemmCall& call) { k.run_ab_split(call, splits); });
          EXPECT_TRUE(c.matches(got));
        }
  }
}

// Split-k adds the slices in a fixed order: the same bits on every run,
// whatever the workspace held.
TEST_F(GemmOpsGpu, SplitKRepeatsBitwise) {
  const auto kernels = gemm_impl::warp_tiled_kernels();
  for (const auto& op : kOps) {
    GpuCase c(with_ops(Shape{false, 300, 260, 1000, 1, 2, 3, 0.5f, 2}, op[0], op[1]), 77);
    const std::size_t ws = gemm_impl::warp_tiled_split_workspace_bytes(c.spec, 4);
    const auto first = c.run_with(ws, stream(), [&](const GemmCall& call) { kernels[0].run_ab_split(call, 4); });
    const auto again = c.run_with(ws, stream(), [&](const GemmCall& call) { kernels[0].run_ab_split(call, 4); });
    EXPECT_TRUE(c.matches(first));
    EXPECT_EQ(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)), 0);
  }
}

// The dispatcher's split choice runs through the API with its workspace
// allocated stream-ordered, and from a caller's workspace of
// gemm_workspace_bytes.
TEST_F(GemmOpsGpu, ApiSplitsMiddlingSizes) {
  GpuCase c(Shape{false, 768, 768, 768, 0, 0, 0, 0.5f, -1}, 31);
  const GemmOptions o{.alpha = 0.5f, .beta = -1, .stream = stream()};
  const auto choice = gemm_impl::choose_warp_tiled(c.spec);
  ASSERT_GT(choice.splits, 1u);  // 768^3 is in the shape table's split bands
  const std::size_t bytes = gemm_workspace_bytes(768, 768, 768, o);
  EXPECT_EQ(bytes, gemm_impl::warp_tiled_split_workspace_bytes(c.spec, choice.splits));
  c.dc.upload(c.c0.v.data(), c.c0.v.size());
  gemm(c.da.data(), c.db.data(), 768, 768, 768, c.dc.data(), o);
  EXPECT_TRUE(c.matches(c.download(stream())));
  DeviceBytes ws(bytes, "test workspace");
  c.dc.upload(c.c0.v.data(), c.c0.v.size());
  GemmOptions given = o;
  given.workspace = {ws.data(), bytes};
  gemm(c.da.data(), c.db.data(), 768, 768, 768, c.dc.data(), given);
  EXPECT_TRUE(c.matches(c.download(stream())));
}

// Column-major through the public API: the caller's column-major
// C = op(A) op(B) is the row-major C^T = op(B)^T op(A)^T, so a row-major
// case (m', n', ta', tb') is the column-major call with m = n', n = m',
// A = its B (op_a = tb'), B = its A (op_b = ta').
TEST_F(GemmOpsGpu, ApiColumnMajorEveryOp) {
  std::uint64_t seed = 1300;
  for (const auto& op : kOps)
    for (const char* variant : {"", "warp_tiled", "cublas_sgemm"}) {
      const Shape s = with_ops(Shape{false, 129, 70, 33, 1, 3, 2, 0.75f, -0.5f}, op[0], op[1]);
      SCOPED_TRACE(std::string(variant) + " " + gemm_test::shape_name(s));
      GpuCase c(s, seed += 5);
      c.dc.upload(c.c0.v.data(), c.c0.v.size());
      gemm(c.db.data(), c.da.data(), s.n, s.m, s.k, c.dc.data(),
           {.alpha = s.alpha, .beta = s.beta, .op_a = s.tb ? Trans::t : Trans::n, .op_b = s.ta ? Trans::t : Trans::n,
            .layout = Layout::col_major, .lda = c.b.ld, .ldb = c.a.ld, .ldc = c.c0.ld, .variant = variant,
            .stream = stream()});
      EXPECT_TRUE(c.matches(c.download(stream())));
    }
}

// A taught rung asked for a transposed operand is refused by name, before
// anything runs.
TEST_F(GemmOpsGpu, ApiRefusesTaughtRungsForTransposes) {
  GpuCase c(Shape{false, 40, 30, 20, 0, 0, 0, 1, 0, true, false}, 3);
  try {
    gemm(c.da.data(), c.db.data(), 40, 30, 20, c.dc.data(), {.op_a = Trans::t, .variant = "thread_coarsened"});
    ADD_FAILURE() << "thread_coarsened ran a transposed operand";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("variant 'thread_coarsened' computes N,N only"), std::string::npos)
        << e.what();
  }
}

}  // namespace
