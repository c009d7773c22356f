// docs/architecture.md's "How to add a rung", followed literally for a
// trivial rung of the reduce ladder, as a newcomer would:
//   1. the rung's file (here: the functions below, as in 11_my_idea.cu),
//   2. its declaration (here: beside them),
//   3. one table row, in ladder order.
// A test binary of its own: the row it adds (through Ladder::add, the one way
// a test can add a row without editing ladder.cpp) must not leak into the
// other tests' ladders.
#include <gtest/gtest.h>

#include <sstream>

#include "families/reduce/contract.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "tessera/core/error.hpp"

namespace tessera::reduce_impl {
namespace {

using namespace ladder::roles;

// 1. The rung: a serial loop over the input in double, rounded once (floats
// only, sums only: its supports() says so, and the harness honours it).
bool supports_recipe_serial(const ReduceSpec& s) { return s.dtype == Dtype::f32 && s.op == Op::sum && s.accum == Accum::native; }
std::size_t ws_recipe_serial(const ReduceSpec&) { return 0; }
void run_recipe_serial(const ReduceCall& call) {
  const auto* in = static_cast<const float*>(call.in);
  double sum = 0;
  for (std::size_t i = 0; i < call.spec.n; ++i) sum += in[i];
  *static_cast<float*>(call.out) = static_cast<float>(sum);
}

// The same rung with a bug (it drops the last element): the harness must
// catch it.
void run_recipe_broken(const ReduceCall& call) {
  ReduceCall shorter = call;
  if (shorter.spec.n > 0) --shorter.spec.n;
  run_recipe_serial(shorter);
}

// 3. The table rows (step 1: next to the OpenMP rung, CPU backend, so that
// the test runs without a GPU).
const ReduceVariant recipe_rows[] = {
    {{"reduce", "recipe_serial", 1, CPU, TAUGHT, "serial double sum: the recipe's example rung", true},
     supports_recipe_serial, ws_recipe_serial, run_recipe_serial},
    {{"reduce", "recipe_broken", 1, CPU, TAUGHT, "the example rung with a bug", true},
     supports_recipe_serial, ws_recipe_serial, run_recipe_broken},
};

class Recipe : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { variants_ladder().add(recipe_rows); }
};

TEST_F(Recipe, RowIsListedInLadderOrder) {
  const auto all = variants_ladder().all();
  int previous_step = -1;
  bool seen = false;
  for (const auto& v : all) {
    EXPECT_GE(v.info.step, previous_step) << v.info.name;
    previous_step = v.info.step;
    seen = seen || v.info.name == "recipe_serial";
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(variants_ladder().at("recipe_serial", "test").info.step, 1);
  const harness::Pattern* p = find_pattern("reduce");
  ASSERT_NE(p, nullptr);
  bool listed = false;
  for (const auto& info : p->variants()) listed = listed || info.name == "recipe_serial";
  EXPECT_TRUE(listed) << "tessera list reduce shows it";
}

TEST_F(Recipe, VerifyChecksTheNewRungAgainstTheReference) {
  harness::RunOptions o;
  o.quick = true;
  o.type = Dtype::f32;
  o.op = Op::sum;
  o.accum = Accum::native;
  std::ostringstream out;
  const auto good = harness::run_verify(harness::parse_selector("reduce/recipe_serial"), o, harness::DeviceInfo{}, out);
  EXPECT_FALSE(good.results.empty()) << out.str();
  EXPECT_EQ(good.failures, 0) << out.str();
  const auto bad = harness::run_verify(harness::parse_selector("reduce/recipe_broken"), o, harness::DeviceInfo{}, out);
  EXPECT_GT(bad.failures, 0) << "a rung that drops an element must fail verify";
}

TEST_F(Recipe, UnknownNamesListTheNewRung) {
  try {
    variants_ladder().at("recipe_typo", "tessera::reduce");
    FAIL() << "no error for an unknown name";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no variant named 'recipe_typo'"), std::string::npos) << what;
    EXPECT_NE(what.find("recipe_serial"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace tessera::reduce_impl
