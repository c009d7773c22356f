// The lab's compose rows on a GPU: the tuning rows of compact, partition,
// unique and rle (lab/compose/register.cpp) through the same checks as the
// product's rungs (tests/compose_gpu_test_support.hpp): edge sizes and shapes,
// misaligned pointers, repeatability, many tiles, a run across every tile,
// graph capture. Every test skips when no device is present.
#include <gtest/gtest.h>

#include "compose_gpu_test_support.hpp"
#include "register_lab.hpp"

namespace {

using namespace compose_test;

class LabGpuRung : public WithGpu<::testing::TestWithParam<GpuCase>> {};

TEST_P(LabGpuRung, MatchesReference) { check_rung_matches_reference(GetParam(), stream()); }

// Built before main() registers the lab rows: the cases are listed lazily.
std::vector<GpuCase> lab_cases() {
  tessera::lab::register_all();
  return gpu_cases([](tessera::Role r) { return r == tessera::Role::tuning; });
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LabGpuRung);
INSTANTIATE_TEST_SUITE_P(ComposeLab, LabGpuRung, ::testing::ValuesIn(lab_cases()), gpu_case_name);

using ComposeLabGpu = WithGpu<::testing::Test>;

TEST_F(ComposeLabGpu, SinglePassOnManyTiles) {
  check_single_pass_on_many_tiles([](tessera::Role r) { return r == tessera::Role::tuning; }, stream());
}

TEST_F(ComposeLabGpu, RunLengthOfOneRunAcrossEveryTile) { check_one_run_across_every_tile("single_pass", stream()); }

TEST_F(ComposeLabGpu, SinglePassIsGraphCapturable) {
  for (const char* name : {"single_pass", "single_pass_lean", "single_pass_wide"}) check_graph_replay(name, stream());
}

}  // namespace
