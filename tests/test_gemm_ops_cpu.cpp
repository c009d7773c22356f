// GEMM with op(A), op(B) in {N, T} and both storage orders, on the CPU: the
// public API's mapping (api_common.hpp: column-major runs as the row-major
// C^T = op(B)^T op(A)^T, operands swapped) and the CPU rungs, which are the
// check's truth, against a naive triple loop written here over the caller's
// own layout; the argument checks in the caller's terms; the refusal of the
// taught rungs; and the shape table of policy.hpp (tile and split-k), which
// needs no GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "families/gemm/api_common.hpp"
#include "families/gemm/contract.hpp"
#include "families/gemm/policy.hpp"
#include "families/gemm/problem_check.hpp"
#include "gemm_test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/gemm.hpp"

namespace {

using namespace tessera;
using gemm_impl::GemmOp;

// A stored matrix in the caller's layout: element (i, j) of a rows x cols
// matrix at v[i * ld + j] (row-major) or v[i + j * ld] (column-major);
// padding INPUT_PAD.
struct Stored {
  std::size_t rows = 0, cols = 0, ld = 1;
  bool col = false;
  std::vector<float> v;
  std::size_t index(std::size_t i, std::size_t j) const { return col ? i + j * ld : i * ld + j; }
  float at(std::size_t i, std::size_t j) const { return v[index(i, j)]; }
};

Stored random_stored(std::size_t rows, std::size_t cols, std::size_t pad, bool col, std::uint64_t seed) {
  Stored s{rows, cols, std::max<std::size_t>(1, (col ? rows : cols) + pad), col, {}};
  const std::size_t lines = col ? cols : rows;
  s.v.assign(std::max<std::size_t>(1, lines * s.ld), gemm_test::INPUT_PAD);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      s.v[s.index(i, j)] = float(double(gemm_test::splitmix(seed) >> 40) * 0x1.0p-23 - 1.0);
  return s;
}

struct OpsCase {
  std::size_t m, n, k;
  std::size_t pad_a, pad_b, pad_c;
  float alpha, beta;
};

// Odd sizes, k = 0, vectors, padded leading dimensions, alpha / beta.
const OpsCase kCases[] = {
    {1, 1, 1, 0, 0, 0, 1, 0},        {7, 5, 3, 0, 0, 0, 1, 0},       {17, 33, 9, 1, 2, 3, 0.75f, -0.5f},
    {33, 17, 65, 3, 0, 1, -1.25f, 1}, {5, 3, 0, 0, 0, 0, 1, 0.5f},    {1, 29, 13, 2, 1, 0, 1, 0},
    {31, 1, 13, 0, 2, 5, 2, 0.25f},  {130, 70, 129, 4, 4, 4, 1, 0},
};

// Runs `variant` through the API's validation and mapping on host memory
// (validate + the variant's run: what tessera::gemm does after its memory
// checks, which need a device in CUDA builds) and compares C with the
// triple loop.
::testing::AssertionResult run_and_check(const OpsCase& c, Trans op_a, Trans op_b, Layout layout,
                                         const std::string& variant, std::uint64_t seed) {
  const bool col = layout == Layout::col_major, ta = op_a == Trans::t, tb = op_b == Trans::t;
  const Stored a = ta ? random_stored(c.k, c.m, c.pad_a, col, seed) : random_stored(c.m, c.k, c.pad_a, col, seed);
  const Stored b =
      tb ? random_stored(c.n, c.k, c.pad_b, col, seed + 1) : random_stored(c.k, c.n, c.pad_b, col, seed + 1);
  Stored c0 = random_stored(c.m, c.n, c.pad_c, col, seed + 2);
  // Padding of C (and all of it when beta == 0: it must not be read) is poison.
  std::vector<bool> inside(c0.v.size(), false);
  for (std::size_t i = 0; i < c.m; ++i)
    for (std::size_t j = 0; j < c.n; ++j) inside[c0.index(i, j)] = true;
  for (std::size_t e = 0; e < c0.v.size(); ++e)
    if (!inside[e] || c.beta == 0) std::memset(&c0.v[e], gemm_test::POISON, sizeof(float));
  std::vector<float> got = c0.v;

  const GemmOptions o{.alpha = c.alpha, .beta = c.beta, .op_a = op_a, .op_b = op_b, .layout = layout,
                      .lda = a.ld, .ldb = b.ld, .ldc = c0.ld, .variant = variant};
  const gemm_impl::ApiCall api =
      gemm_impl::validate(gemm_impl::ab_spec(c.m, c.n, c.k, o), a.v.data(), b.v.data(), got.data(), o);
  std::vector<unsigned char> ws(api.variant->workspace_bytes(api.call.spec));
  gemm_impl::GemmCall call = api.call;
  call.workspace = ws.data();
  api.variant->run(call);

  const long double gamma = gemm_test::gamma_k(c.k + 2);
  for (std::size_t i = 0; i < c.m; ++i)
    for (std::size_t j = 0; j < c.n; ++j) {
      long double dot = 0, mag = 0;
      for (std::size_t p = 0; p < c.k; ++p) {
        const long double x = (long double)(ta ? a.at(p, i) : a.at(i, p)) * (tb ? b.at(j, p) : b.at(p, j));
        dot += x;
        mag += std::fabs(x);
      }
      long double want = (long double)c.alpha * dot, scale = std::fabs((long double)c.alpha) * mag;
      if (c.beta != 0) {
        want += (long double)c.beta * c0.at(i, j);
        scale += std::fabs((long double)c.beta * c0.at(i, j));
      }
      const float g = got[c0.index(i, j)];
      if (!(std::fabs((long double)g - want) <= gamma * scale))
        return ::testing::AssertionFailure() << "C(" << i << ", " << j << ") = " << g << ", expected " << double(want);
    }
  for (std::size_t e = 0; e < got.size(); ++e) {
    std::uint32_t bits;
    std::memcpy(&bits, &got[e], 4);
    if (!inside[e] && bits != 0xFFFFFFFFu) return ::testing::AssertionFailure() << "padding element " << e << " written";
  }
  return ::testing::AssertionSuccess();
}

TEST(GemmOpsCpu, EveryOpEveryLayoutMatchesTheTripleLoop) {
  for (const char* variant : {"cpu_reference", "cpu_openmp"})
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (Trans op_a : {Trans::n, Trans::t})
        for (Trans op_b : {Trans::n, Trans::t})
          for (const OpsCase& c : kCases) {
            SCOPED_TRACE(std::string(variant) + (layout == Layout::col_major ? " col_major " : " row_major ") +
                         (op_a == Trans::t ? "T" : "N") + (op_b == Trans::t ? "T " : "N ") + std::to_string(c.m) +
                         "x" + std::to_string(c.n) + "x" + std::to_string(c.k));
            EXPECT_TRUE(run_and_check(c, op_a, op_b, layout, variant, 100 + c.m * 3 + c.k));
          }
}

// Column-major is the row-major transpose problem: operands and their
// leading dimensions swap, the ops stay with their operands.
TEST(GemmOpsCpu, ColumnMajorMapsToTheSwappedRowMajorProduct) {
  const GemmOptions o{.op_a = Trans::t, .op_b = Trans::n, .layout = Layout::col_major, .lda = 40, .ldb = 50, .ldc = 60};
  const gemm_impl::GemmSpec s = gemm_impl::ab_spec(30, 20, 10, o);
  EXPECT_EQ(s.m, 20u);
  EXPECT_EQ(s.n, 30u);
  EXPECT_EQ(s.k, 10u);
  EXPECT_EQ(s.lda, 50u);  // the caller's B
  EXPECT_EQ(s.ldb, 40u);
  EXPECT_EQ(s.ldc, 60u);
  EXPECT_FALSE(s.ta);  // op_b = N
  EXPECT_TRUE(s.tb);   // op_a = T
  // Dense defaults per stored matrix: row-major A^T (k x m) has rows of m.
  const gemm_impl::GemmSpec d = gemm_impl::ab_spec(30, 20, 10, {.op_a = Trans::t, .op_b = Trans::t});
  EXPECT_EQ(d.lda, 30u);
  EXPECT_EQ(d.ldb, 10u);
  EXPECT_EQ(d.ldc, 20u);
}

std::string error_of_validate(std::size_t m, std::size_t n, std::size_t k, const GemmOptions& o) {
  std::vector<float> a(4096, 1.0f), b(4096, 1.0f), c(4096, -7.0f);
  try {
    (void)gemm_impl::validate(gemm_impl::ab_spec(m, n, k, o), a.data(), b.data(), c.data(), o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& msg, const char* what) { return msg.find(what) != std::string::npos; }

// Leading dimensions are checked per stored matrix in the caller's layout,
// and the message names the caller's argument.
TEST(GemmOpsCpu, LeadingDimensionsAreCheckedInTheCallersTerms) {
  const GemmOptions cpu{.variant = "cpu_reference"};
  auto with = [&](Trans ta, Trans tb, Layout l, std::size_t lda, std::size_t ldb, std::size_t ldc) {
    GemmOptions o = cpu;
    o.op_a = ta, o.op_b = tb, o.layout = l, o.lda = lda, o.ldb = ldb, o.ldc = ldc;
    return o;
  };
  const auto R = Layout::row_major, C = Layout::col_major;
  const auto N = Trans::n, T = Trans::t;
  // m = 6, n = 5, k = 4. Row-major A^T is k x m: rows of m = 6.
  EXPECT_EQ(error_of_validate(6, 5, 4, with(T, N, R, 6, 5, 5)), "");
  EXPECT_TRUE(has(error_of_validate(6, 5, 4, with(T, N, R, 5, 5, 5)), "lda = 5 is less than max(1, m) = 6"));
  // Column-major A is m x k: columns of m = 6; C m x n: columns of 6.
  EXPECT_EQ(error_of_validate(6, 5, 4, with(N, N, C, 6, 4, 6)), "");
  EXPECT_TRUE(has(error_of_validate(6, 5, 4, with(N, N, C, 4, 4, 6)), "lda = 4 is less than max(1, m) = 6"));
  EXPECT_TRUE(has(error_of_validate(6, 5, 4, with(N, N, C, 6, 3, 6)), "ldb = 3 is less than max(1, k) = 4"));
  EXPECT_TRUE(has(error_of_validate(6, 5, 4, with(N, N, C, 6, 4, 5)), "ldc = 5 is less than max(1, m) = 6"));
  // Column-major B^T is n x k: columns of n = 5.
  EXPECT_EQ(error_of_validate(6, 5, 4, with(N, T, C, 6, 5, 6)), "");
  EXPECT_TRUE(has(error_of_validate(6, 5, 4, with(N, T, C, 6, 4, 6)), "ldb = 4 is less than max(1, n) = 5"));
  // Null pointers and overlap name the caller's matrices in column-major too.
  std::vector<float> a(64, 1.0f), c(64, 0.0f);
  const GemmOptions col = with(N, N, C, 0, 0, 0);
  try {
    (void)gemm_impl::validate(gemm_impl::ab_spec(4, 4, 4, col), a.data(), nullptr, c.data(), col);
    ADD_FAILURE() << "a null B was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.what(), "B is a null pointer")) << e.what();
  }
}

TEST(GemmOpsCpu, TaughtRungsAndGemmAatRefuseByName) {
#if TESSERA_HAVE_CUDA
  const std::string taught = error_of_validate(8, 8, 8, {.op_a = Trans::t, .variant = "tiled_32"});
  EXPECT_TRUE(has(taught, "variant 'tiled_32' computes N,N only")) << taught;
  EXPECT_TRUE(has(taught, "TN")) << taught;
  // Every taught rung is refused; the product and the vendor take the ops.
  for (const auto& v : gemm_impl::variants_ladder().all()) {
    const gemm_impl::GemmSpec nt{GemmOp::ab, 8, 8, 8, 8, 8, 8, false, true};
    if (v.info.role == Role::taught && v.supports(gemm_impl::GemmSpec{GemmOp::ab, 8, 8, 8, 8, 8, 8})) {
      EXPECT_FALSE(v.supports(nt)) << v.info.name;
    }
  }
  EXPECT_TRUE(gemm_impl::variants_ladder().find("warp_tiled")->supports({GemmOp::ab, 8, 8, 8, 8, 8, 8, true, true}));
  EXPECT_TRUE(gemm_impl::variants_ladder().find("cublas_sgemm")->supports({GemmOp::ab, 8, 8, 8, 8, 8, 8, true, false}));
#endif
  std::vector<float> a(64, 1.0f), c(64, 0.0f);
  for (const GemmOptions& o : {GemmOptions{.op_a = Trans::t}, GemmOptions{.op_b = Trans::t},
                               GemmOptions{.layout = Layout::col_major}}) {
    try {
      (void)gemm_impl::aat_spec(4, 4, o);
      ADD_FAILURE() << "gemm_aat accepted a transposed or column-major call";
    } catch (const Error& e) {
      EXPECT_TRUE(has(e.what(), "gemm_aat computes the row-major A*A^T only")) << e.what();
    }
  }
}

#if !TESSERA_HAVE_CUDA
// The public entry point itself (host memory is fine without CUDA).
TEST(GemmOpsCpu, PublicApiColumnMajorTransposed) {
  const std::size_t m = 9, n = 7, k = 5;
  const Stored a = random_stored(k, m, 2, true, 1), b = random_stored(k, n, 1, true, 2);  // op_a = T, op_b = N
  std::vector<float> c(m * n, -7.0f);
  gemm(a.v.data(), b.v.data(), m, n, k, c.data(),
       {.op_a = Trans::t, .layout = Layout::col_major, .lda = a.ld, .ldb = b.ld});
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (std::size_t p = 0; p < k; ++p) {
        want += double(a.at(p, i)) * b.at(p, j);
        mag += std::fabs(double(a.at(p, i)) * b.at(p, j));
      }
      EXPECT_NEAR(c[i + j * m], want, double(gemm_test::gamma_k(k + 2)) * mag) << i << " " << j;
    }
}
#endif

// The harness's check of a transposed problem compares with op(A) op(B):
// the right answer passes, the product of the untransposed storage (same
// shape, square) fails.
TEST(GemmOpsCpu, HarnessCheckTellsTransposedFromPlain) {
  const std::size_t n = 37;
  for (const auto& [ta, tb] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    SCOPED_TRACE(std::string(ta ? "T" : "N") + (tb ? "T" : "N"));
    harness::gemm::Inputs in;
    in.spec = {GemmOp::ab, n, n, n, n + 1, n + 2, n + 3, ta, tb};
    in.alpha = 0.5f;
    const gemm_test::Mat a = gemm_test::random_mat(n, n, 1, 3), b = gemm_test::random_mat(n, n, 2, 4);
    in.a = a.v;
    in.b = b.v;
    const harness::gemm::Expected expected(in, 9);
    const auto& ref = gemm_impl::variants_ladder().at("cpu_reference", "test");
    auto run = [&](bool rta, bool rtb) {
      std::vector<float> c(n * (n + 3));
      for (std::size_t i = 0; i < n; ++i)
        std::memset(c.data() + i * (n + 3) + n, harness::gemm::POISON_BYTE, 3 * sizeof(float));
      gemm_impl::GemmSpec s = in.spec;
      s.ta = rta, s.tb = rtb;
      ref.run({s, in.alpha, 0, in.a.data(), in.b.data(), c.data(), nullptr, nullptr});
      return c;
    };
    EXPECT_TRUE(expected.compare(run(ta, tb).data(), gemm_impl::Fill::full).ok);
    EXPECT_FALSE(expected.compare(run(false, false).data(), gemm_impl::Fill::full).ok);
  }
}

// ---- policy.hpp's shape table (tile and split-k) ----------------------------------

TEST(GemmPolicy, ShapeRulesAreWellFormed) {
  double last = 0;
  for (const auto& r : gemm_impl::policy::SHAPE_RULES) {
    SCOPED_TRACE(std::string(r.tile));
    EXPECT_LT(gemm_impl::policy::tile_index(r.tile), gemm_impl::policy::WARP_TILED_TILE_COUNT);
    EXPECT_GE(r.splits, 1u);
    EXPECT_LE(r.splits, 8u);  // the lab sweeps 2..8
    EXPECT_GE(r.max_c_per_sm, last);  // bands in increasing order: the first that applies is the narrowest
    last = r.max_c_per_sm;
    EXPECT_FALSE(r.measured.empty());
  }
}

// With the H100/H200's 132 SMs and every tile fitting.
TEST(GemmPolicy, ShapeTableSplitsMiddlingSizesOnly) {
  const auto choose = [](GemmOp op, std::size_t m, std::size_t n, std::size_t k) {
    return gemm_impl::policy::choose(op, m, n, k, 132, [](std::size_t) { return true; });
  };
  const auto name = [](const gemm_impl::policy::Choice& c) {
    return std::string(gemm_impl::policy::WARP_TILED_TILES[c.tile].name);
  };
  // Large sizes: the wave model's tiles, unsplit (today's choices).
  for (std::size_t s : {2048, 4096, 8192}) {
    const auto c = choose(GemmOp::ab, s, s, s);
    EXPECT_EQ(name(c), "128x128x16_serpentine") << s;
    EXPECT_EQ(c.splits, 1u) << s;
  }
  EXPECT_EQ(choose(GemmOp::ab, 1000, 3000, 777).splits, 1u);
  EXPECT_EQ(name(choose(GemmOp::ab, 1000, 3000, 777)), "128x64x16");
  // Every choice is the wave model's or a rule's, within the slice-depth limit.
  for (std::size_t s : {256, 512, 768, 1000, 1024, 1536}) {
    const auto c = choose(GemmOp::ab, s, s, s);
    ASSERT_LT(c.tile, gemm_impl::policy::WARP_TILED_TILE_COUNT);
    const int bk = gemm_impl::policy::WARP_TILED_TILES[c.tile].bk;
    EXPECT_TRUE(c.splits == 1 || s / c.splits >= gemm_impl::policy::MIN_SLABS_PER_SLICE * std::size_t(bk)) << s;
  }
  // verify --quick (the sanitizers' list) holds 200 x 130 x 600 to run the
  // split-k kernels: if a new table stops splitting it, move that shape.
  EXPECT_GT(choose(GemmOp::ab, 200, 130, 600).splits, 1u);
  // Shallow k is never split; neither is A*A^T, nor an empty C.
  EXPECT_EQ(choose(GemmOp::ab, 512, 512, 32).splits, 1u);
  EXPECT_EQ(choose(GemmOp::ab, 2048, 2048, 300).splits, 1u);  // the API's workspace query test shape
  EXPECT_EQ(choose(GemmOp::aat, 512, 512, 4096).splits, 1u);
  EXPECT_EQ(choose(GemmOp::ab, 0, 512, 4096).splits, 1u);
  // A rule whose tile does not fit falls through to the wave model.
  const auto none = gemm_impl::policy::choose(GemmOp::ab, 512, 512, 512, 132, [](std::size_t) { return false; });
  EXPECT_EQ(none.tile, gemm_impl::policy::WARP_TILED_TILE_COUNT);
  EXPECT_EQ(gemm_impl::policy::splits_for_depth(8, 4096, 16), 8u);
  EXPECT_EQ(gemm_impl::policy::splits_for_depth(8, 128, 16), 4u);  // 128 / (2 * 16)
  EXPECT_EQ(gemm_impl::policy::splits_for_depth(8, 48, 16), 1u);
}

}  // namespace
