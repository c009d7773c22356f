// The lab's transpose rows in the ladder (no GPU needed): every one a tuning
// row of a CUDA build, in ladder order, named once, never the API's pick;
// CPU-only builds add none.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "families/transpose/contract.hpp"
#include "tessera/transpose.hpp"
#include "transpose/lab_rungs.hpp"

namespace {

using namespace tessera;

TEST(TransposeLab, TuningRowsJoinTheLadderInOrder) {
  const auto all = transpose_impl::variants_ladder().all();
  std::set<std::string_view> names;
  int tuning = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_TRUE(names.insert(all[i].info.name).second) << "duplicate name " << all[i].info.name;
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, all[i].info.step);
    }
    if (all[i].info.role != Role::tuning) continue;
    ++tuning;
    EXPECT_EQ(all[i].info.backend, Backend::cuda) << all[i].info.name;
    EXPECT_TRUE(all[i].info.step == 6 || all[i].info.step == 7) << all[i].info.name;
    EXPECT_GT(all[i].info.adds.size(), 20u) << all[i].info.name;
    EXPECT_EQ(all[i].output, transpose_impl::Output::transpose);
    EXPECT_TRUE(all[i].supports({Dtype::f32, 3, 5, 5, 3}));
    EXPECT_FALSE(all[i].supports({Dtype::u8, 3, 5, 5, 3})) << "4- and 8-byte words only";
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
  const auto* pick = transpose_impl::variants_ladder().find(transpose_default_variant(Dtype::f32, 8192, 8192));
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(pick->info.role, Role::product);
#else
  EXPECT_EQ(tuning, 0);
#endif
}

}  // namespace
