// The lab's compose rows join the product's ladders as tuning rows, in
// ladder order, without replacing any product row; the product's defaults
// are unchanged by them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "families/compose/contract.hpp"
#include "families/compose/policy.hpp"
#include "tessera/compact.hpp"

namespace {

using tessera::compose_impl::Family;

TEST(ComposeLabRows, AreTuningRowsInLadderOrder) {
  std::size_t tuning = 0;
  for (Family f : tessera::compose_impl::ALL_FAMILIES) {
    const auto rows = tessera::compose_impl::variants(f);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i > 0) {
        EXPECT_LE(rows[i - 1].info.step, rows[i].info.step) << rows[i].info.name;
      }
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(rows[i].info.name, rows[j].info.name) << "a name twice";
      if (rows[i].info.role != tessera::Role::tuning) continue;
      ++tuning;
      EXPECT_EQ(rows[i].info.backend, tessera::Backend::cuda);
      EXPECT_FALSE(rows[i].info.adds.empty());
    }
  }
#if TESSERA_HAVE_CUDA
  // compact 3, partition 3, unique 4, rle 1 (lab/compose/register.cpp).
  EXPECT_EQ(tuning, 11u);
#else
  EXPECT_EQ(tuning, 0u);
#endif
}

// The build's own policy (the GPU's in CUDA builds), whether or not this
// machine has a GPU.
std::string_view build_pick(Family f, tessera::Dtype type) {
  tessera::compose_impl::Spec s;
  s.family = f;
  s.dtype = type;
  s.n = 1000;
  return tessera::compose_impl::default_variant(s, TESSERA_HAVE_CUDA);
}

TEST(ComposeLabRows, LeaveTheDefaultsAlone) {
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(build_pick(Family::compact, tessera::Dtype::f32), "single_pass_bulk");
  EXPECT_EQ(build_pick(Family::partition, tessera::Dtype::f32), "single_pass_wide");
  EXPECT_EQ(build_pick(Family::rle, tessera::Dtype::i32), "single_pass_lean");
#else
  EXPECT_EQ(build_pick(Family::compact, tessera::Dtype::f32), "cpu_openmp");
#endif
}

}  // namespace
