// The lab's histogram rows in the ladder (no GPU needed): tuning rows of a
// CUDA build, in ladder order, named once, never the API's pick; CPU-only
// builds add none.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "families/histogram/contract.hpp"
#include "tessera/histogram.hpp"

namespace {

using namespace tessera;

TEST(HistogramLab, TuningRowsJoinTheLadderInOrder) {
  const auto all = histogram_impl::variants_ladder().all();
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
    EXPECT_EQ(all[i].info.step, 7) << all[i].info.name;
    EXPECT_TRUE(all[i].supports({Dtype::u8, 1000, 256, 0.0f, 0.0f})) << all[i].info.name;
    EXPECT_EQ(all[i].workspace_bytes({Dtype::u8, 1000, 256, 0.0f, 0.0f}), 0u);
  }
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(tuning, 2);
  for (const char* name : {"packed8_atomic", "packed8_rmw"}) {
    const auto* v = histogram_impl::variants_ladder().find(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(v->info.role, Role::tuning);
  }
  // The policy never picks a lab row.
  for (int bins : {1, 64, 256, 1024, 4096, 1 << 20})
    EXPECT_NE(histogram_impl::variants_ladder().find(histogram_default_variant(Dtype::f32, bins, 100))->info.role,
              Role::tuning);
  EXPECT_NE(histogram_impl::variants_ladder().find(histogram_default_variant(Dtype::u8, 256, 100))->info.role,
            Role::tuning);
#else
  EXPECT_EQ(tuning, 0);
#endif
}

}  // namespace
