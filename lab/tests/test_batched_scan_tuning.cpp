// The lab's batched_scan rows join the product's ladder in ladder order, each
// a tuning row with a name of its own; the product's rows keep their roles.
// In CPU-only builds the lab has no batched_scan rows.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "families/batched_scan/contract.hpp"

namespace {

using namespace tessera;

TEST(BatchedScanLab, TuningRowsJoinTheLadderInOrder) {
  const auto all = batched_scan_impl::all_variants();
  std::set<std::string_view> names;
  std::size_t tuning = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    SCOPED_TRACE(std::string(v.info.name));
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate name";
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, v.info.step) << "ladder order";
    }
    EXPECT_EQ(batched_scan_impl::find_variant(v.info.name), &v);
    if (v.info.role != Role::tuning) continue;
    ++tuning;
    EXPECT_EQ(v.info.backend, Backend::cuda);
    EXPECT_FALSE(v.info.adds.empty());
    EXPECT_TRUE(v.info.deterministic);
  }
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(tuning, 15u);
  ASSERT_NE(batched_scan_impl::find_variant("multi_tile"), nullptr);
  EXPECT_EQ(batched_scan_impl::find_variant("multi_tile_resident_self")->info.role, Role::product);
#else
  EXPECT_EQ(tuning, 0u);
#endif
}

}  // namespace
