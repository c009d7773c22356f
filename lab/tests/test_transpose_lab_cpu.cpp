// The lab's transpose rows in the ladder (no GPU needed): every one a tuning
// row of a CUDA build, in ladder order, named once, never the API's pick;
// CPU-only builds add none.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "families/transpose/contract.hpp"
#include "families/transpose/policy.hpp"
#include "tessera/transpose.hpp"
#include "transpose/lab_rungs.hpp"

namespace {

using namespace tessera;

TEST(TransposeLab, TuningRowsJoinTheLadderInOrder) {
  const auto all = transpose_impl::variants_ladder().all();
  std::set<std::string_view> names;
  for (const auto& v : all) EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate name " << v.info.name;
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.info.step < b.info.step; }));
  int tuning = 0;
  for (const auto& v : all)
    if (v.info.role == Role::tuning) {
      ++tuning;
      // CUDA rows of steps 6 (the block-shape sweep) and 7 that transpose
      // 4- and 8-byte words.
      EXPECT_TRUE(v.info.backend == Backend::cuda && (v.info.step == 6 || v.info.step == 7)) << v.info.name;
      EXPECT_GT(v.info.adds.size(), 20u) << v.info.name;
      EXPECT_EQ(v.output, transpose_impl::Output::transpose);
      EXPECT_TRUE(v.supports({Dtype::f32, 3, 5, 5, 3}) && !v.supports({Dtype::u8, 3, 5, 5, 3})) << v.info.name;
    }
#if TESSERA_HAVE_CUDA
  // grouped_order, vec16_swizzle, vec16_grouped and the two sweeps.
  const std::size_t sweeps = transpose_impl::block_shape_rows().size() + transpose_impl::persistent_rows().size();
  EXPECT_EQ(static_cast<std::size_t>(tuning), 3 + sweeps);
  EXPECT_EQ(transpose_impl::block_shape_rows().size(), 3u);
  EXPECT_EQ(transpose_impl::persistent_rows().size(), 3u);
  for (const char* name : {"grouped_order", "vec16_swizzle", "vec16_grouped", "tile16_16x8", "tile32_32x4",
                           "tile64_64x16", "vec16_persistent", "vec16_persistent_streaming", "vec16_persistent_2_per_sm"}) {
    const auto* v = transpose_impl::variants_ladder().find(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(v->info.role, Role::tuning) << name;
  }
  const auto* pick = transpose_impl::variants_ladder().find(transpose_impl::policy::pick(true));
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(pick->info.role, Role::product);
#else
  EXPECT_EQ(tuning, 0);
#endif
}

}  // namespace
