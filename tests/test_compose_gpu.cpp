// The composition rungs of the product on a GPU (every CUDA and vendor
// variant of map, adjacent_difference, compact, partition, unique,
// find_unique, rle) checked against the independent reference of
// compose_test_support.hpp: edge sizes around warps, blocks and the tiles,
// many tiles (the look-back walks past its window), misaligned input and
// flag pointers, runs longer than a tile, poisoned workspaces and outputs,
// repeatability, graph capture, and the public API with device pointers and
// with a caller's workspace. Compiled in CUDA builds only; every test skips
// when no device is present. The lab's tuning rows have the same checks in
// lab/tests/test_compose_gpu.cpp.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <vector>

#include "compose_gpu_test_support.hpp"
#include "tessera/compact.hpp"
#include "tessera/core/error.hpp"
#include "tessera/map.hpp"

namespace {

using namespace compose_test;

class GpuRung : public WithGpu<::testing::TestWithParam<GpuCase>> {};

TEST_P(GpuRung, MatchesReference) { check_rung_matches_reference(GetParam(), stream()); }

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuRung);
INSTANTIATE_TEST_SUITE_P(Compose, GpuRung, ::testing::ValuesIn(gpu_cases([](tessera::Role) { return true; })),
                         gpu_case_name);

using ComposeGpu = WithGpu<::testing::Test>;

TEST_F(ComposeGpu, SinglePassOnManyTiles) {
  check_single_pass_on_many_tiles([](tessera::Role) { return true; }, stream());
}

TEST_F(ComposeGpu, RunLengthOfOneRunAcrossEveryTile) {
  for (const char* name : {"single_pass_lean", "flags_scan_scatter"}) check_one_run_across_every_tile(name, stream());
}

// The API's compaction rungs can be captured in a CUDA graph and replayed.
TEST_F(ComposeGpu, SinglePassIsGraphCapturable) {
  for (const char* name : {"single_pass_early", "single_pass_bulk"}) check_graph_replay(name, stream());
}

// ---- the public API on device pointers -------------------------------------------

TEST_F(ComposeGpu, PublicApiDefaultsAndCountOnDevice) {
  constexpr std::size_t n = 123457;
  std::vector<std::int32_t> x(n);
  tessera::harness::fill_runs(x.data(), Dtype::i32, n, 5, 0.2);
  DeviceBuffer<std::int32_t> d_x(n), d_y(n);
  DeviceBuffer<std::int64_t> d_len(n), d_count(1);
  d_x.upload(x.data(), n);
  TESSERA_CUDA(cudaDeviceSynchronize());
  const tessera::CompactOptions on{.stream = stream()};

  EXPECT_EQ(tessera::compose_default_variant("compact", Dtype::i32, n), "single_pass_bulk");
  EXPECT_EQ(tessera::compose_default_variant("compact", Dtype::i64, n), "single_pass_bulk");
  EXPECT_EQ(tessera::compose_default_variant("unique", Dtype::i32, n), "single_pass_bulk");
  EXPECT_EQ(tessera::compose_default_variant("partition", Dtype::f32, n), "single_pass_wide");
  EXPECT_EQ(tessera::compose_default_variant("rle", Dtype::i32, n), "single_pass_lean");
  const auto k = tessera::compact_if(d_x.data(), n, d_y.data(), {.pred = tessera::even<std::int32_t>(), .stream = stream()});
  EXPECT_EQ(k, std::count_if(x.begin(), x.end(), [](std::int32_t v) { return v % 2 == 0; }));
  std::vector<std::int32_t> y(static_cast<std::size_t>(k));
  d_y.download(y.data(), y.size());
  std::vector<std::int32_t> want;
  std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](std::int32_t v) { return v % 2 == 0; });
  EXPECT_EQ(y, want);
  // Flagged compaction through the default: single_pass_bulk does not take
  // flags, the policy routes it to single_pass_early.
  std::vector<std::uint8_t> fl(n);
  for (std::size_t i = 0; i < n; ++i) fl[i] = static_cast<std::uint8_t>((x[i] >> 3) & 1);
  DeviceBuffer<std::uint8_t> d_fl(n);
  d_fl.upload(fl.data(), n);
  TESSERA_CUDA(cudaDeviceSynchronize());
  const auto kf = tessera::compact_flagged(d_x.data(), d_fl.data(), n, d_y.data(), on);
  EXPECT_EQ(kf, std::count(fl.begin(), fl.end(), std::uint8_t{1}));

  tessera::unique_into(d_x.data(), n, d_y.data(), d_count.data(), on);
  std::int64_t count = 0;
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  d_count.download(&count, 1);
  std::vector<std::int32_t> u;
  std::unique_copy(x.begin(), x.end(), std::back_inserter(u));
  EXPECT_EQ(count, static_cast<std::int64_t>(u.size()));

  const auto runs = tessera::run_length_encode(d_x.data(), n, d_y.data(), d_len.data(), on);
  EXPECT_EQ(runs, static_cast<std::int64_t>(u.size()));
  std::vector<std::int64_t> len(static_cast<std::size_t>(runs));
  d_len.download(len.data(), len.size());
  EXPECT_EQ(std::accumulate(len.begin(), len.end(), std::int64_t(0)), static_cast<std::int64_t>(n));

  // Bytes of text: the known-domain default.
  std::vector<std::uint8_t> text(1 << 20);
  tessera::harness::fill_random(text.data(), text.size(), 3, tessera::harness::Distribution::text);
  DeviceBuffer<std::uint8_t> d_text(text.size()), d_distinct(256);
  d_text.upload(text.data(), text.size());
  TESSERA_CUDA(cudaDeviceSynchronize());
  const auto distinct = tessera::find_unique(d_text.data(), text.size(), d_distinct.data(), on);
  std::vector<std::uint8_t> sorted = text;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(distinct, std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

// A caller's workspace of *_workspace_bytes: the call allocates nothing, so
// it can be captured in a CUDA graph through the public API; a misaligned
// workspace works too; one byte short is refused.
TEST_F(ComposeGpu, PublicApiWithCallersWorkspace) {
  constexpr std::size_t n = 1000003;
  std::vector<float> x(n);
  tessera::harness::fill_random(x.data(), n, 11, tessera::harness::Distribution::uniform);
  DeviceBuffer<float> d_x(n), d_y(n);
  DeviceBuffer<std::int64_t> d_count(1);
  d_x.upload(x.data(), n);
  const auto pred = tessera::greater_than(0.25f);
  const std::size_t bytes = tessera::compact_if_workspace_bytes<float>(n, {.pred = pred});
  ASSERT_GT(bytes, 0u);
  DeviceBytes ws(bytes + 3);
  TESSERA_CUDA(cudaDeviceSynchronize());
  const auto want = std::count_if(x.begin(), x.end(), [](float v) { return v > 0.25f; });

  const tessera::Workspace misaligned{static_cast<unsigned char*>(ws.data()) + 3, bytes};
  EXPECT_EQ(tessera::compact_if(d_x.data(), n, d_y.data(), {.pred = pred, .stream = stream(), .workspace = misaligned}),
            want);

  cudaGraph_t graph = nullptr;
  TESSERA_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
  tessera::compact_if_into(d_x.data(), n, d_y.data(), d_count.data(),
                           {.pred = pred, .stream = stream(), .workspace = {ws.data(), bytes}});
  TESSERA_CUDA(cudaStreamEndCapture(stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  d_count.fill_bytes(0xFF, stream());
  TESSERA_CUDA(cudaGraphLaunch(exec, stream()));
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  std::int64_t count = 0;
  d_count.download(&count, 1);
  EXPECT_EQ(count, want);

  EXPECT_THROW(tessera::compact_if(d_x.data(), n, d_y.data(),
                                   {.pred = pred, .stream = stream(), .workspace = {ws.data(), bytes - 1}}),
               tessera::Error);
  std::vector<unsigned char> host(bytes);
  EXPECT_THROW(tessera::compact_if(d_x.data(), n, d_y.data(),
                                   {.pred = pred, .stream = stream(), .workspace = {host.data(), bytes}}),
               tessera::Error)
      << "a host workspace for a GPU variant";
  EXPECT_EQ(tessera::adjacent_difference_workspace_bytes<float>(n), 0u) << "vectorized_shuffle needs no scratch";
  TESSERA_CUDA(cudaDeviceSynchronize());
}

TEST_F(ComposeGpu, PublicApiRejectsHostPointersAndOverlap) {
  constexpr std::size_t n = 1000;
  DeviceBuffer<float> d_x(n), d_y(2 * n);
  std::vector<float> host(n);
  const tessera::PredicateOptions<float> positive{.pred = tessera::greater_than(0.f)};
  EXPECT_THROW(tessera::compact_if(host.data(), n, d_y.data(), positive), tessera::Error);
  EXPECT_THROW(tessera::compact_if(d_y.data(), n, d_y.data() + n / 2, positive), tessera::Error);
  EXPECT_THROW(tessera::partition_if(d_y.data(), n, d_y.data() + n - 1, positive), tessera::Error);
  // The exactly adjacent ranges do not overlap.
  EXPECT_NO_THROW(tessera::compact_if(d_y.data(), n, d_y.data() + n, positive));
  // In-place map is allowed.
  EXPECT_NO_THROW(tessera::transform(d_x.data(), n, d_x.data()));
  TESSERA_CUDA(cudaDeviceSynchronize());
}

}  // namespace
