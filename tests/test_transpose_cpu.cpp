// The transpose ladder without a GPU: the table's contract, the CPU rungs at
// every test shape and type, the public API's argument checks (before any
// CUDA call, so they run in every build), the CPU-only API, and the harness
// loops on the pattern.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "families/transpose/contract.hpp"
#include "families/transpose/policy.hpp"
#include "tessera/core/error.hpp"
#include "tessera/transpose.hpp"
#include "test_support.hpp"
#include "test_transpose_support.hpp"

namespace {

using namespace tessera;
using transpose_impl::Output;
using transpose_impl::TransposeVariant;
using tessera_test::TShape;

// ---- the table -----------------------------------------------------------------

TEST(TransposeTable, LadderContract) {
  const auto all = transpose_impl::variants_ladder().all();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front().info.name, "cpu_reference");
  EXPECT_EQ(all.front().info.step, 0);
  std::set<std::string_view> names;
  int copies = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate name " << v.info.name;
    EXPECT_EQ(v.info.pattern, "transpose");
    EXPECT_GT(v.info.adds.size(), 20u) << v.info.name << ": every rung says what it adds";
    EXPECT_TRUE(v.info.deterministic) << v.info.name;
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, v.info.step);
    }
    EXPECT_EQ(transpose_impl::variants_ladder().find(v.info.name), &v);
    if (v.output == Output::copy) {
      ++copies;
      EXPECT_EQ(v.info.name, "copy_bound");
      EXPECT_NE(v.info.adds.find("NOT a transpose"), std::string_view::npos);
    }
    // Every variant moves float and double.
    EXPECT_TRUE(v.supports({Dtype::f32, 3, 5, 5, 3})) << v.info.name;
    EXPECT_TRUE(v.supports({Dtype::f64, 3, 5, 5, 3})) << v.info.name;
  }
  EXPECT_EQ(transpose_impl::variants_ladder().find("no_such_variant"), nullptr);
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(copies, 1);
  // The harness's "vs naive" is measured against the first row of the lowest
  // CUDA step: it must be the lower bound, not the copy.
  const TransposeVariant* first_cuda = nullptr;
  for (const auto& v : all)
    if (v.info.backend == Backend::cuda) {
      first_cuda = &v;
      break;
    }
  ASSERT_NE(first_cuda, nullptr);
  EXPECT_EQ(first_cuda->info.name, "naive_strided_write");
  const auto* geam = transpose_impl::variants_ladder().find("cublas_geam");
  ASSERT_NE(geam, nullptr);
  EXPECT_EQ(geam->info.kind(), Kind::vendor);
  EXPECT_NE(geam->prepare, nullptr) << "the cuBLAS handle is created outside the timed region";
  EXPECT_FALSE(geam->supports({Dtype::i32, 3, 5, 5, 3}));
  EXPECT_EQ(all.back().info.kind(), Kind::vendor);
#else
  EXPECT_EQ(copies, 0);
#endif
}

// The product ladder: no tuning row (those are the lab's), and the product
// rows are exactly what the API may pick.
TEST(TransposeTable, RolesMatchThePolicy) {
  // The build's own rule: the GPU's in CUDA builds (a default call takes it
  // where there is a GPU; tests/test_host_calls.cpp covers none).
  const std::string pick(transpose_impl::policy::pick(TESSERA_HAVE_CUDA));
  for (const auto& v : transpose_impl::variants_ladder().all()) {
    EXPECT_NE(v.info.role, Role::tuning) << v.info.name << ": tuning rows live in the lab";
    if (v.info.role == Role::product) {
      EXPECT_EQ(v.info.name, pick);
    }
    if (v.info.backend == Backend::cpu) {
      EXPECT_EQ(v.info.role, Role::reference) << v.info.name;
    }
  }
  const auto* chosen = transpose_impl::variants_ladder().find(pick);
  ASSERT_NE(chosen, nullptr);
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(pick, "tile64_64x8");
  EXPECT_EQ(chosen->info.role, Role::product);
#else
  EXPECT_EQ(pick, "cpu_openmp_blocked");
#endif
}

// ---- CPU rungs -----------------------------------------------------------------

class TransposeCpu : public ::testing::TestWithParam<const TransposeVariant*> {};

TEST_P(TransposeCpu, EveryShapeAndType) {
  const TransposeVariant& v = *GetParam();
  for (Dtype t : {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32, Dtype::u8}) {
    for (const TShape& shape : tessera_test::transpose_shapes()) {
      const auto spec = tessera_test::spec_of(t, shape);
      ASSERT_TRUE(v.supports(spec));
      SCOPED_TRACE(std::string(to_string(t)) + " " + tessera_test::shape_name(shape));
      const auto in = tessera_test::make_input(spec, tessera_test::seed_for(v.info.name, shape.rows, shape.cols));
      const unsigned char poison = tessera_test::poison_for(spec, in.data());
      std::vector<unsigned char> out(tessera_test::out_bytes(spec) + 16, poison);
      v.run({spec, in.data(), out.data(), nullptr});
      EXPECT_TRUE(tessera_test::check_output(spec, in.data(), out.data(), poison, false));
      for (std::size_t b = tessera_test::out_bytes(spec); b < out.size(); ++b) ASSERT_EQ(out[b], poison);
    }
  }
}

std::vector<const TransposeVariant*> cpu_rungs() {
  std::vector<const TransposeVariant*> v;
  for (const auto& var : transpose_impl::variants_ladder().all())
    if (var.info.backend == Backend::cpu) v.push_back(&var);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Rungs, TransposeCpu, ::testing::ValuesIn(cpu_rungs()),
                         [](const auto& info) { return std::string(info.param->info.name); });

// ---- public API: argument checks (no CUDA call is reached) --------------------

TEST(TransposeApi, ErrorsNameTheArgumentAndWriteNothing) {
  std::vector<float> in(6 * 8, 1.0f), out(8 * 6, 42.0f);
  auto untouched = [&] {
    for (float x : out)
      if (x != 42.0f) return false;
    return true;
  };
  using tessera_test::error_message;
  using tessera_test::has_substr;

  std::string msg = error_message([&] { transpose<float>(nullptr, 6, 8, out.data()); });
  EXPECT_TRUE(has_substr(msg, "d_in"));
  EXPECT_TRUE(has_substr(msg, "null"));
  msg = error_message([&] { transpose<float>(in.data(), 6, 8, nullptr); });
  EXPECT_TRUE(has_substr(msg, "d_out"));

  msg = error_message([&] { transpose(in.data(), 6, 8, out.data(), {.ld_in = 7}); });
  EXPECT_TRUE(has_substr(msg, "ld_in = 7"));
  EXPECT_TRUE(has_substr(msg, "cols = 8"));
  msg = error_message([&] { transpose(in.data(), 6, 8, out.data(), {.ld_out = 5}); });
  EXPECT_TRUE(has_substr(msg, "ld_out = 5"));
  EXPECT_TRUE(has_substr(msg, "rows = 6"));

  // In place, and partly overlapping.
  msg = error_message([&] { transpose(in.data(), 6, 8, in.data()); });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  msg = error_message([&] { transpose(in.data(), 2, 8, in.data() + 15); });
  EXPECT_TRUE(has_substr(msg, "overlap"));

  msg = error_message([&] { transpose(in.data(), 6, 8, out.data(), {.variant = "no_such_variant"}); });
  EXPECT_TRUE(has_substr(msg, "no_such_variant"));
  EXPECT_TRUE(has_substr(msg, "cpu_reference"));

  const std::size_t huge = std::size_t(1) << 62;
  msg = error_message([&] { transpose(in.data(), huge, huge, out.data()); });
  EXPECT_TRUE(has_substr(msg, "overflows"));

  msg = error_message([&] {
    transpose(reinterpret_cast<const float*>(reinterpret_cast<const char*>(in.data()) + 2), 2, 2, out.data());
  });
  EXPECT_TRUE(has_substr(msg, "aligned"));
#if TESSERA_HAVE_CUDA
  msg = error_message([&] { transpose(in.data(), 6, 8, out.data(), {.variant = "copy_bound"}); });
  EXPECT_TRUE(has_substr(msg, "copy"));
  EXPECT_TRUE(has_substr(msg, "instead of transposing"));
#endif
  EXPECT_TRUE(untouched());

  // Empty matrices need no pointers.
  EXPECT_NO_THROW(transpose<float>(nullptr, 0, 8, nullptr));
  EXPECT_NO_THROW(transpose<float>(nullptr, 8, 0, nullptr));
}

// No variant needs scratch; the query still names an unknown variant.
TEST(TransposeApi, WorkspaceBytesAreZero) {
  EXPECT_EQ(transpose_workspace_bytes(Dtype::f32, 8192, 8192), 0u);
  EXPECT_EQ(transpose_workspace_bytes(Dtype::f64, 3, 5, {.variant = "cpu_reference"}), 0u);
  const std::string msg =
      tessera_test::error_message([] { (void)transpose_workspace_bytes(Dtype::f32, 3, 5, {.variant = "no_such"}); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "no variant named 'no_such'")) << msg;
}

// ---- public API in CPU-only builds (host pointers) ------------------------------

#if !TESSERA_HAVE_CUDA

TEST(TransposeCpuOnlyApi, DefaultNamedAndPitched) {
  EXPECT_EQ(transpose_default_variant(Dtype::f32, 100, 100), "cpu_openmp_blocked");
  for (const TShape& shape : tessera_test::transpose_shapes()) {
    SCOPED_TRACE(tessera_test::shape_name(shape));
    const auto spec = tessera_test::spec_of(Dtype::f64, shape);
    const auto in = tessera_test::make_input(spec, 17);
    for (std::string name : {"", "cpu_reference", "cpu_openmp_blocked"}) {
      std::vector<unsigned char> out(tessera_test::out_bytes(spec) + 16, 0xFF);
      transpose(reinterpret_cast<const double*>(in.data()), shape.rows, shape.cols,
                reinterpret_cast<double*>(out.data()), {.ld_in = spec.ld_in, .ld_out = spec.ld_out, .variant = name});
      EXPECT_TRUE(tessera_test::check_output(spec, in.data(), out.data(), 0xFF, false)) << name;
    }
  }
}

#endif

// ---- the harness on the pattern ------------------------------------------------

harness::RunOptions cpu_run(bool quick) {
  harness::RunOptions o;
  o.gpu = false;
  o.quick = quick;
  o.seed = 5;
  return o;
}

TEST(TransposeHarness, VerifyPassesAndCoversTheShapes) {
  std::ostringstream out;
  harness::DeviceInfo dev;  // no GPU
  const auto report = harness::run_verify(harness::parse_selector("transpose"), cpu_run(true), dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  std::set<std::string> labels;
  for (const auto& r : report.results) labels.insert(r.problem.label);
  EXPECT_TRUE(labels.count("float 1x1"));
  EXPECT_TRUE(labels.count("double 1000x1"));
  EXPECT_TRUE(labels.count("float 97x101 ld 104/102"));
  // The full list (what `tessera verify transpose` runs) has the edge shapes.
  auto full = cpu_run(false);
  std::set<std::string> full_labels;
  for (const auto& f : find_pattern("transpose")->verify_problems(full)) full_labels.insert(f.label);
  for (const char* want : {"float 0x0", "float 0x7", "double 1x1048576", "double 1048576x1", "float 33x65 ld 68/38",
                           "float 2047x2049"})
    EXPECT_TRUE(full_labels.count(want)) << want;
  for (const auto& r : report.results) EXPECT_EQ(r.max_rel_err, 0.0) << r.problem.label;
}

TEST(TransposeHarness, BenchCostModelAndFilters) {
  std::ostringstream out;
  harness::DeviceInfo dev;
  dev.host_copy_gbps = 10.0;
  auto opt = cpu_run(false);
  opt.size = 300;
  auto report = harness::run_bench(harness::parse_selector("transpose"), opt, dev, out);
  std::size_t cpu_rungs = 0;
  for (const auto& v : transpose_impl::variants_ladder().all()) cpu_rungs += v.info.backend == Backend::cpu;
  ASSERT_EQ(report.results.size(), 2 * cpu_rungs) << out.str();  // float, double
  for (const auto& r : report.results) {
    EXPECT_TRUE(r.verified) << r.error;
    EXPECT_EQ(r.problem.shape, (std::vector<std::size_t>{300, 300}));
    ASSERT_GT(r.time_ms, 0);
    const double bytes = 2.0 * 300 * 300 * (r.problem.type == "float" ? 4 : 8);
    EXPECT_NEAR(r.gbps, bytes / (r.time_ms * 1e-3) / 1e9, 1e-6 * r.gbps);
  }
  // An operator filter leaves the pattern without problems; --type int32 is moved too.
  opt.op = Op::sum;
  EXPECT_TRUE(harness::run_bench(harness::parse_selector("transpose"), opt, dev, out).results.empty());
  opt.op.reset();
  opt.type = Dtype::i32;
  report = harness::run_bench(harness::parse_selector("transpose"), opt, dev, out);
  ASSERT_FALSE(report.results.empty());
  for (const auto& r : report.results) EXPECT_EQ(r.problem.type, "int32");
  // The headline: one problem.
  opt = cpu_run(false);
  opt.headline = true;
  const auto problems = find_pattern("transpose")->bench_problems(opt);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].label, "float 4096x4096");
}

}  // namespace
