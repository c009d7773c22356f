// The lab's histogram rows in the ladder (no GPU needed): tuning rows of a
// CUDA build, in ladder order, named once, never the API's pick; CPU-only
// builds add none.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "families/histogram/contract.hpp"
#include "tessera/core/variant.hpp"
#include "tessera/histogram.hpp"

namespace {

using namespace tessera;

TEST(HistogramLab, TuningRowsJoinTheLadderInOrder) {
  const auto rows = histogram_impl::variants_ladder().infos();
  // One name a row, product and lab together; the lab's rows in step order.
  std::set<std::string_view> names;
  for (const VariantInfo& info : rows) names.insert(info.name);
  EXPECT_EQ(names.size(), rows.size());
  int tuning = 0, last_step = 0;
  for (const VariantInfo& info : rows) {
    EXPECT_GE(info.step, last_step) << info.name;
    last_step = info.step;
    tuning += info.role == Role::tuning;
  }
  // Step-7 CUDA rows that count bytes without a workspace.
  const histogram_impl::HistogramSpec bytes{Dtype::u8, 1000, 256, 0.0f, 0.0f};
  for (const auto& v : histogram_impl::variants_ladder().all())
    if (v.info.role == Role::tuning) {
      EXPECT_TRUE(v.info.backend == Backend::cuda && v.info.step == 7) << v.info.name;
      EXPECT_TRUE(v.supports(bytes) && v.workspace_bytes(bytes) == 0) << v.info.name;
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
