// The GEMM registry, the CPU rungs (host pointers), the harness's check of a
// GEMM result (fed right and wrong answers) and, on host memory, the public
// API's argument validation, checked against the independent reference of
// gemm_test_support.hpp.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gemm_test_support.hpp"
#include "families/gemm/problem_check.hpp"
#include "families/gemm/contract.hpp"
#include "families/gemm/policy.hpp"
#include "tessera/core/error.hpp"
#include "tessera/gemm.hpp"

namespace {

using namespace tessera;
using gemm_impl::Fill;
using gemm_impl::GemmCall;
using gemm_impl::GemmOp;
using gemm_impl::GemmSpec;
using gemm_impl::GemmVariant;
using gemm_test::Mat;
using gemm_test::Shape;

// ---- registry ----------------------------------------------------------------

TEST(GemmRegistry, EveryVariantIsWellFormed) {
  const auto all = gemm_impl::variants_ladder().all();
  ASSERT_GE(all.size(), 2u);
  std::set<std::string_view> names;
  for (const auto& v : all) {
    SCOPED_TRACE(std::string(v.info.name));
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate variant name";
    EXPECT_EQ(v.info.pattern, "gemm");
    EXPECT_FALSE(v.info.adds.empty());
    EXPECT_NE(v.supports, nullptr);
    EXPECT_NE(v.workspace_bytes, nullptr);
    EXPECT_NE(v.run, nullptr);
    for (char ch : v.info.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    // Every variant computes at least one of the two products.
    const GemmSpec ab{GemmOp::ab, 4, 4, 4, 4, 4, 4}, aat{GemmOp::aat, 4, 4, 4, 4, 0, 4};
    EXPECT_TRUE(v.supports(ab) || v.supports(aat));
    EXPECT_EQ(gemm_impl::variants_ladder().find(v.info.name), &v);
  }
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].info.step, all[i].info.step);
  EXPECT_EQ(gemm_impl::variants_ladder().find("no_such_variant"), nullptr);
  // The API's picks are the PRODUCT rows.
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(gemm_impl::variants_ladder().find("warp_tiled")->info.role, Role::product);
  EXPECT_EQ(gemm_impl::variants_ladder().find("aat_warp_tiled")->info.role, Role::product);
#endif
}

// ---- the default policy (policy.hpp) -------------------------------------------

TEST(GemmPolicy, VariantRulesNameProductRows) {
  for (const auto& rule : gemm_impl::policy::VARIANT_RULES) {
    SCOPED_TRACE(std::string(rule.variant));
    EXPECT_FALSE(rule.measured.empty());
    if (rule.gpu != bool(TESSERA_HAVE_CUDA)) continue;  // that build's rows are not in this one
    const GemmVariant* v = gemm_impl::variants_ladder().find(rule.variant);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->info.role, rule.gpu ? Role::product : Role::reference);
    EXPECT_TRUE(v->supports(GemmSpec{rule.op, 4, 4, 4, 4, rule.op == GemmOp::ab ? 4u : 0u, 4}));
  }
}

// The wave model with the H100's 132 SMs, every configuration fitting: the
// choices the bench measured (docs/gemm.md).
TEST(GemmPolicy, WaveModelPicksTheMeasuredConfigurations) {
  const auto pick = [](GemmOp op, std::size_t m, std::size_t n) {
    const std::size_t i = gemm_impl::policy::choose_tile(op, m, n, 132, [](std::size_t) { return true; });
    return std::string(gemm_impl::policy::WARP_TILED_TILES[i].name);
  };
  EXPECT_EQ(pick(GemmOp::ab, 4096, 4096), "128x128x16_serpentine");
  EXPECT_EQ(pick(GemmOp::ab, 8192, 8192), "128x128x16_serpentine");
  EXPECT_EQ(pick(GemmOp::ab, 1000, 3000), "128x64x16");  // 192 tiles of 128 x 128 for 132 SMs
  EXPECT_EQ(pick(GemmOp::ab, 100, 100), "64x64x16");     // 4 tiles of 64 x 64, 1 of 128 x 64
  EXPECT_EQ(pick(GemmOp::aat, 4096, 4096), "128x128x16_serpentine");
  EXPECT_EQ(pick(GemmOp::aat, 100, 100), "64x64x16");
  // A*A^T takes square tiles only; nothing fitting is reported as such.
  for (std::size_t m : {1, 200, 1000, 3000}) {
    const auto& tile = gemm_impl::policy::WARP_TILED_TILES[gemm_impl::policy::choose_tile(
        GemmOp::aat, m, m, 132, [](std::size_t) { return true; })];
    EXPECT_EQ(tile.bm, tile.bn) << m;
  }
  EXPECT_EQ(gemm_impl::policy::choose_tile(GemmOp::ab, 64, 64, 132, [](std::size_t) { return false; }),
            gemm_impl::policy::WARP_TILED_TILE_COUNT);
}

// ---- CPU rungs -----------------------------------------------------------------

const Shape kShapes[] = {
    {false, 1, 1, 1},         {false, 1, 7, 1},
    {false, 5, 3, 0, 0, 0, 0, 1, 0.5f},  // k == 0: C = beta * C
    {false, 0, 7, 5},         {false, 7, 0, 5},
    {false, 17, 19, 23},      {false, 1, 300, 129},
    {false, 300, 1, 129},     {false, 65, 129, 1},
    {false, 129, 130, 131, 1, 3, 5, 0.75f, -0.5f},
    {false, 70, 200, 300, 4, 4, 4, -1.25f, 1},
    {true, 1, 1, 1},          {true, 1, 1, 9},
    {true, 5, 5, 0, 0, 0, 0, 1, 0.5f},
    {true, 33, 33, 17},       {true, 130, 130, 70, 1, 0, 3, 0.75f, -0.5f},
    {true, 200, 200, 257},
};

struct Ran {
  Mat a, b, c0;
  std::vector<float> got;
  gemm_test::Reference ref;
};

Ran run_cpu(const GemmVariant& v, const Shape& s, std::uint64_t seed) {
  Ran r;
  r.a = gemm_test::random_mat(s.m, s.k, s.pad_a, seed);
  if (!s.aat) r.b = gemm_test::random_mat(s.k, s.n, s.pad_b, seed + 1);
  r.c0 = gemm_test::initial_c(s.m, s.n, s.pad_c, s.beta, seed + 2);
  r.got = r.c0.v;
  const GemmSpec spec{s.aat ? GemmOp::aat : GemmOp::ab, s.m, s.n, s.k, r.a.ld, s.aat ? 0 : r.b.ld, r.c0.ld};
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  v.run(GemmCall{spec, s.alpha, s.beta, r.a.v.data(), s.aat ? nullptr : r.b.v.data(), r.got.data(), ws.data(), nullptr});
  r.ref = gemm_test::reference(r.a, s.aat ? nullptr : &r.b, s.aat, s.alpha, s.beta, r.c0);
  return r;
}

TEST(GemmCpu, EveryCpuVariantEveryShape) {
  for (const auto& v : gemm_impl::variants_ladder().all()) {
    if (v.info.backend != Backend::cpu) continue;
    for (const Shape& s : kShapes) {
      SCOPED_TRACE(std::string(v.info.name) + " " + gemm_test::shape_name(s));
      const Ran r = run_cpu(v, s, 1234 + s.m * 7 + s.k);
      EXPECT_TRUE(gemm_test::matches(r.got, r.c0, r.ref, s.k));
    }
  }
}

// The reference rung rounds once per element: it is the correctly rounded
// value of its double dot product, so within one float ulp of the exact one.
TEST(GemmCpu, ReferenceIsWithinOneUlp) {
  const auto* v = gemm_impl::variants_ladder().find("cpu_reference");
  ASSERT_NE(v, nullptr);
  const Shape s{false, 40, 50, 300};
  const Ran r = run_cpu(*v, s, 99);
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < s.n; ++j) {
      const long double exact = r.ref.ref[i * s.n + j];
      const float g = r.got[i * r.c0.ld + j];
      const float below = std::nextafter(float(exact), -INFINITY), above = std::nextafter(float(exact), INFINITY);
      ASSERT_TRUE(g >= below && g <= above) << i << " " << j;
    }
}

// A*A^T from the OpenMP rung (the GPU's float arithmetic in k order) is
// exactly symmetric: each pair of mirror elements sums the same products in
// the same order.
TEST(GemmCpu, OpenmpAatIsSymmetric) {
  const auto* v = gemm_impl::variants_ladder().find("cpu_openmp");
  ASSERT_NE(v, nullptr);
  const Shape s{true, 150, 150, 333};
  const Ran r = run_cpu(*v, s, 7);
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < i; ++j) ASSERT_EQ(r.got[i * r.c0.ld + j], r.got[j * r.c0.ld + i]) << i << " " << j;
}

// ---- the harness's check -------------------------------------------------------

harness::gemm::Inputs inputs_of(const Ran& r, const Shape& s) {
  harness::gemm::Inputs in;
  in.spec = {s.aat ? GemmOp::aat : GemmOp::ab, s.m, s.n, s.k, r.a.ld, s.aat ? 0 : r.b.ld, r.c0.ld};
  in.alpha = s.alpha;
  in.beta = s.beta;
  in.a = r.a.v;
  in.b = s.aat ? std::vector<float>(1, 0.0f) : r.b.v;
  if (s.beta != 0) in.c0 = r.c0.v;
  return in;
}

TEST(GemmCheck, AcceptsRightAndRejectsWrongAnswers) {
  const auto* v = gemm_impl::variants_ladder().find("cpu_reference");
  ASSERT_NE(v, nullptr);
  for (const Shape& s : {Shape{false, 37, 41, 53, 1, 2, 3, 0.5f, 2}, Shape{true, 45, 45, 31, 2, 0, 1}}) {
    SCOPED_TRACE(gemm_test::shape_name(s));
    const Ran r = run_cpu(*v, s, 5);
    const harness::gemm::Expected expected(inputs_of(r, s), 11);
    ASSERT_TRUE(expected.full());
    EXPECT_TRUE(expected.compare(r.got.data(), Fill::full).ok);

    auto bad = r.got;  // one element off by far more than the tolerance
    bad[20 * r.c0.ld + 17] += 1e-2f;
    EXPECT_FALSE(expected.compare(bad.data(), Fill::full).ok);
    bad = r.got;  // a NaN
    bad[3 * r.c0.ld + 4] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(expected.compare(bad.data(), Fill::full).ok);
    bad = r.got;  // a padding element written
    bad[2 * r.c0.ld + s.n] = 0.0f;
    EXPECT_FALSE(expected.compare(bad.data(), Fill::full).ok);
    // A lower-triangle result: the upper triangle is not looked at.
    if (s.aat) {
      bad = r.got;
      bad[1 * r.c0.ld + 30] = 12345.0f;
      EXPECT_TRUE(expected.compare(bad.data(), Fill::lower).ok);
      bad[30 * r.c0.ld + 1] = 12345.0f;
      EXPECT_FALSE(expected.compare(bad.data(), Fill::lower).ok);
    }
  }
}

// Past FULL_REFERENCE_MACS the check samples rows, columns and entries and
// compares row and column sums: one wrong element anywhere moves a row sum.
TEST(GemmCheck, SampledCheckCatchesOneWrongElement) {
  const Shape s{false, 1100, 1024, 4000};  // 4.5e9 multiply-adds > 2^32
  ASSERT_GT(std::uint64_t(s.m) * s.n * s.k, harness::gemm::FULL_REFERENCE_MACS);
  Ran r;
  r.a = gemm_test::random_mat(s.m, s.k, 0, 1);
  r.b = gemm_test::random_mat(s.k, s.n, 0, 2);
  r.c0 = gemm_test::initial_c(s.m, s.n, 0, 0, 3);
  r.got = r.c0.v;
  const auto* v = gemm_impl::variants_ladder().find("cpu_openmp");
  ASSERT_NE(v, nullptr);
  const GemmSpec spec{GemmOp::ab, s.m, s.n, s.k, r.a.ld, r.b.ld, r.c0.ld};
  v->run(GemmCall{spec, 1, 0, r.a.v.data(), r.b.v.data(), r.got.data(), nullptr, nullptr});
  const harness::gemm::Expected expected(inputs_of(r, s), 3);
  ASSERT_FALSE(expected.full());
  EXPECT_TRUE(expected.compare(r.got.data(), Fill::full).ok);
  auto bad = r.got;
  bad[777 * r.c0.ld + 333] += 1000.0f;  // past the row-sum tolerance (~gamma * 1024 * k / 4 ~ 250)
  EXPECT_FALSE(expected.compare(bad.data(), Fill::full).ok);
  bad = r.got;
  bad[500 * r.c0.ld + 600] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(expected.compare(bad.data(), Fill::full).ok);
}

TEST(GemmCheck, GammaGrowsWithK) {
  EXPECT_NEAR(harness::gemm::gamma_k(4098), 4098 * 0x1.0p-24, 1e-7);  // nu / (1 - nu) ~ nu + nu^2
  EXPECT_LT(harness::gemm::gamma_k(10), harness::gemm::gamma_k(11));
  EXPECT_TRUE(std::isinf(harness::gemm::gamma_k(std::uint64_t(1) << 24)));
}

// ---- public API: validation (host pointers and a cpu_ variant) ---------------

struct ApiData {
  std::vector<float> a = std::vector<float>(64, 1.0f), b = std::vector<float>(64, 1.0f), c = std::vector<float>(64, -7.0f);
};

bool untouched(const std::vector<float>& c) {
  for (float x : c)
    if (x != -7.0f) return false;
  return true;
}

// The message of the Error `f` throws ("" if it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GemmApi, BadArgumentsThrowAndWriteNothing) {
  ApiData d;
  const GemmOptions cpu{.variant = "cpu_reference"};
  auto with = [](GemmOptions o, std::size_t lda, std::size_t ldb, std::size_t ldc) {
    o.lda = lda, o.ldb = ldb, o.ldc = ldc;
    return o;
  };
  auto has = [](const std::string& msg, const char* what) { return msg.find(what) != std::string::npos; };
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), d.b.data(), 4, 4, 4, d.c.data(), with(cpu, 3, 4, 4)); }), "lda = 3"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), d.b.data(), 4, 4, 4, d.c.data(), with(cpu, 4, 2, 4)); }), "ldb = 2"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), d.b.data(), 4, 5, 4, d.c.data(), with(cpu, 4, 5, 4)); }), "ldc = 4"));
  EXPECT_TRUE(has(error_of([&] { gemm(nullptr, d.b.data(), 4, 4, 4, d.c.data(), cpu); }), "A is a null"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), nullptr, 4, 4, 4, d.c.data(), cpu); }), "B is a null"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), d.b.data(), 4, 4, 4, nullptr, cpu); }), "C is a null"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.c.data() + 8, d.b.data(), 4, 4, 4, d.c.data(), cpu); }), "C overlaps A"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), d.c.data() + 15, 4, 4, 4, d.c.data(), cpu); }), "C overlaps B"));
  const std::string unknown =
      error_of([&] { gemm(d.a.data(), d.b.data(), 4, 4, 4, d.c.data(), {.variant = "no_such_variant"}); });
  EXPECT_TRUE(has(unknown, "tessera::gemm: no variant named 'no_such_variant'")) << unknown;
  EXPECT_TRUE(has(unknown, "cpu_openmp")) << unknown;  // the variants there are
  EXPECT_TRUE(has(error_of([&] { gemm_aat(d.a.data(), 4, 4, d.c.data(), with(cpu, 4, 0, 3)); }), "ldc = 3"));
  EXPECT_TRUE(has(error_of([&] { gemm_aat(d.a.data(), 4, 4, d.c.data(), with(cpu, 4, 4, 4)); }), "has no B"));
  EXPECT_TRUE(has(error_of([&] { gemm_aat(d.c.data(), 4, 4, d.c.data() + 4, cpu); }), "C overlaps A"));
  EXPECT_TRUE(has(error_of([&] { gemm(d.a.data(), d.b.data(), std::size_t(1) << 62, 4, 4, d.c.data(), cpu); }),
                  "does not fit"));
  EXPECT_TRUE(has(error_of([&] { (void)gemm_workspace_bytes(4, 4, 4, {.variant = "no_such_variant"}); }),
                  "no variant named"));
#if TESSERA_HAVE_CUDA  // a variant of the other product (the CPU rungs compute both)
  EXPECT_TRUE(has(error_of([&] { (void)gemm_workspace_bytes(4, 4, 4, {.variant = "aat_naive"}); }),
                  "does not support"));
#endif
  EXPECT_TRUE(untouched(d.c));
}

TEST(GemmApi, WorkspaceQueryNamesTheVariantsNeeds) {
  EXPECT_EQ(gemm_workspace_bytes(100, 200, 300, {.variant = "cpu_openmp"}), 0u);
  EXPECT_EQ(gemm_aat_workspace_bytes(100, 300, {.variant = "cpu_reference"}), 0u);
  // The default (warp_tiled unsplit, or cpu_openmp) needs none at a size the shape table does not split.
  EXPECT_EQ(gemm_workspace_bytes(2048, 2048, 300), 0u);
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(gemm_workspace_bytes(100, 200, 300, {.variant = "cublas_sgemm"}), std::size_t(32) << 20);
  EXPECT_EQ(gemm_aat_workspace_bytes(100, 300, {.variant = "cublas_ssyrk"}), std::size_t(32) << 20);
#endif
}

// In CUDA builds the API asks the CUDA runtime where pointers live, which
// needs a device: these run in test_gemm_gpu.cpp there.
#if !TESSERA_HAVE_CUDA
TEST(GemmApi, CpuVariantByNameComputesTheProduct) {
  const Shape s{false, 6, 5, 4};
  const Mat a = gemm_test::random_mat(s.m, s.k, 0, 1), b = gemm_test::random_mat(s.k, s.n, 0, 2);
  const Mat c0 = gemm_test::initial_c(s.m, s.n, 0, 0, 3);
  std::vector<float> c = c0.v;
  gemm(a.v.data(), b.v.data(), s.m, s.n, s.k, c.data(), {.variant = "cpu_reference"});  // dense
  EXPECT_TRUE(gemm_test::matches(c, c0, gemm_test::reference(a, &b, false, 1, 0, c0), s.k));

  const Mat c1 = gemm_test::initial_c(s.m, s.m, 0, 0, 4);
  c = c1.v;
  gemm_aat(a.v.data(), s.m, s.k, c.data(), {.variant = "cpu_openmp"});
  EXPECT_TRUE(gemm_test::matches(c, c1, gemm_test::reference(a, nullptr, true, 1, 0, c1), s.k));
}

TEST(GemmApi, EmptyMatricesMayBeNull) {
  const GemmOptions cpu{.variant = "cpu_reference"};
  EXPECT_EQ(error_of([&] { gemm(nullptr, nullptr, 0, 0, 4, nullptr, cpu); }), "");
  EXPECT_EQ(error_of([&] { gemm_aat(nullptr, 0, 4, nullptr, cpu); }), "");
}

TEST(GemmApi, CpuOnlyBuildDefaultsToOpenmp) {
  EXPECT_EQ(gemm_default_variant(100, 100, 100), "cpu_openmp");
  EXPECT_EQ(gemm_aat_default_variant(100, 100), "cpu_openmp");
  const Shape s{false, 33, 65, 17};
  const Mat a = gemm_test::random_mat(s.m, s.k, 1, 1), b = gemm_test::random_mat(s.k, s.n, 2, 2);
  const Mat c0 = gemm_test::initial_c(s.m, s.n, 3, 0.5f, 3);
  std::vector<float> c = c0.v;
  gemm(a.v.data(), b.v.data(), s.m, s.n, s.k, c.data(), {.alpha = -2, .beta = 0.5f, .lda = a.ld, .ldb = b.ld, .ldc = c0.ld});
  EXPECT_TRUE(gemm_test::matches(c, c0, gemm_test::reference(a, &b, false, -2, 0.5f, c0), s.k));
}
#endif

}  // namespace
