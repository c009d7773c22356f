// The dense-matrix helpers: layouts, seeded inputs with marked padding,
// poison bytes, and the bitwise and tolerance checks of whole matrices.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/matrix_layout.hpp"
#include "harness/matrix.hpp"
#include "test_support.hpp"

namespace {

using tessera::Dtype;
using tessera::MatrixLayout;
namespace th = tessera::harness;

TEST(MatrixLayout, SpanStorageAndOverflow) {
  const MatrixLayout m{3, 5, 8};
  EXPECT_TRUE(m.valid());
  EXPECT_FALSE(m.is_dense());
  EXPECT_EQ(*m.span(), 2u * 8 + 5);
  EXPECT_EQ(*m.storage(), 24u);
  EXPECT_EQ(*m.count(), 15u);
  EXPECT_EQ(m.at(2, 4), 20u);
  EXPECT_TRUE(MatrixLayout::dense(4, 7).is_dense());
  EXPECT_FALSE((MatrixLayout{3, 5, 4}.valid()));
  EXPECT_TRUE((MatrixLayout{0, 5, 0}.valid()));  // empty: any ld
  EXPECT_EQ(*(MatrixLayout{0, 5, 0}.span()), 0u);
  EXPECT_EQ(*(MatrixLayout{7, 0, 0}.span()), 0u);
  const std::size_t big = std::numeric_limits<std::size_t>::max() / 2;
  EXPECT_FALSE((MatrixLayout{3, big, big}.span().has_value()));
  EXPECT_FALSE((MatrixLayout{3, big, big}.count().has_value()));
  EXPECT_FALSE((MatrixLayout{3, 2, big}.storage().has_value()));
  EXPECT_TRUE((MatrixLayout{2, big, big}.span().has_value()));
}

TEST(MatrixHelpers, LabelAndFillMarkThePadding) {
  EXPECT_EQ(th::matrix_label(MatrixLayout::dense(5000, 3001)), "5000x3001");
  EXPECT_EQ(th::matrix_label(MatrixLayout{5, 3, 8}), "5x3 ld 8");
  const MatrixLayout m{37, 11, 16};
  std::vector<float> a(*m.storage()), b(*m.storage());
  th::fill_matrix(a.data(), Dtype::f32, m, 5, th::Distribution::uniform);
  th::fill_matrix(b.data(), Dtype::f32, m, 5, th::Distribution::uniform);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << "same seed, same matrix";
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < m.rows; ++i) {
    for (std::size_t j = 0; j < m.cols; ++j) zeros += a[m.at(i, j)] == 0.0f;
    for (std::size_t j = m.cols; j < m.ld; ++j) {
      unsigned char bytes[4];
      std::memcpy(bytes, &a[m.at(i, j)], 4);
      for (unsigned char c : bytes) ASSERT_EQ(c, th::INPUT_PAD_BYTE) << i << "," << j;
    }
  }
  EXPECT_LT(zeros, m.rows * m.cols / 10);
  th::fill_matrix(b.data(), Dtype::f32, m, 6, th::Distribution::uniform);
  EXPECT_NE(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << "another seed, another matrix";
}

TEST(MatrixHelpers, PoisonAvoidsValuesPresent) {
  const MatrixLayout m = MatrixLayout::dense(4, 4);
  std::vector<float> f(16, 1.5f);
  EXPECT_EQ(th::poison_byte_for(f.data(), Dtype::f32, m), 0xFF);
  std::vector<std::int32_t> x(16, 7);
  x[5] = -1;  // 0xFFFFFFFF
  const int p = th::poison_byte_for(x.data(), Dtype::i32, m);
  EXPECT_NE(p, 0xFF);
  std::int32_t word;
  std::memset(&word, p, 4);
  for (auto v : x) EXPECT_NE(v, word);
}

// A transposed copy of `a` (layout m) into a poisoned output of layout o.
std::vector<std::uint32_t> transposed(const std::vector<std::uint32_t>& a, const MatrixLayout& m,
                                      const MatrixLayout& o) {
  std::vector<std::uint32_t> out(*o.storage(), 0xFFFFFFFFu);
  for (std::size_t i = 0; i < m.rows; ++i)
    for (std::size_t j = 0; j < m.cols; ++j) out[o.at(j, i)] = a[m.at(i, j)];
  return out;
}

TEST(MatrixHelpers, ExactCheckFindsEveryKindOfMistake) {
  const MatrixLayout m{13, 7, 9}, o{7, 13, 15};
  std::vector<std::uint32_t> a(*m.storage());
  th::fill_matrix(a.data(), Dtype::u32, m, 11, th::Distribution::uniform);
  const th::StridedMatrix expected = th::as_transpose(a.data(), m);

  auto out = transposed(a, m, o);
  auto r = th::check_matrix_exact(out.data(), o, Dtype::u32, expected, 0xFF);
  EXPECT_TRUE(r.ok) << r.detail;
  EXPECT_EQ(r.max_rel_err, 0.0);

  auto wrong = out;
  wrong[o.at(3, 10)] ^= 1u;
  r = th::check_matrix_exact(wrong.data(), o, Dtype::u32, expected, 0xFF);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "row 3, column 10"));
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "1 of 91"));

  auto unwritten = out;
  unwritten[o.at(6, 12)] = 0xFFFFFFFFu;
  r = th::check_matrix_exact(unwritten.data(), o, Dtype::u32, expected, 0xFF);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "never written"));

  auto padded = out;
  padded[o.at(2, 14)] = 0;
  r = th::check_matrix_exact(padded.data(), o, Dtype::u32, expected, 0xFF);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "padding"));
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "row 2, column 14"));

  // The same data read as a plain row-major copy is not a transpose.
  r = th::check_matrix_exact(out.data(), o, Dtype::u32, th::as_rows(a.data(), MatrixLayout{7, 13, 9}), 0xFF);
  EXPECT_FALSE(r.ok);
}

TEST(MatrixHelpers, CloseCheckToleranceNanAndScale) {
  const MatrixLayout g{2, 3, 4};
  std::vector<double> ref = {1, 2, 3, 4, 5, 0};
  std::vector<float> got(8);
  std::memset(got.data(), 0xFF, got.size() * sizeof(float));
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) got[g.at(i, j)] = static_cast<float>(ref[i * 3 + j]);
  auto r = th::check_matrix_close(got.data(), g, Dtype::f32, ref.data(), {.rel = 1e-6}, 0xFF);
  EXPECT_TRUE(r.ok) << r.detail;

  got[g.at(1, 1)] = 5.001f;
  r = th::check_matrix_close(got.data(), g, Dtype::f32, ref.data(), {.rel = 1e-6}, 0xFF);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "row 1, column 1"));
  EXPECT_NEAR(r.max_rel_err, 0.001 / 5, 1e-6);
  // A scale matrix widens the bound element by element.
  std::vector<double> scale(6, 1.0);
  scale[4] = 1e4;
  r = th::check_matrix_close(got.data(), g, Dtype::f32, ref.data(), {.rel = 1e-6, .scale = scale.data()}, 0xFF);
  EXPECT_TRUE(r.ok) << r.detail;

  got[g.at(1, 1)] = std::numeric_limits<float>::quiet_NaN();
  r = th::check_matrix_close(got.data(), g, Dtype::f32, ref.data(), {.rel = 1e300, .abs = 1e300}, 0xFF);
  EXPECT_FALSE(r.ok) << "NaN must fail whatever the tolerance";

  got[g.at(1, 1)] = 5.0f;
  got[g.at(0, 3)] = 0.0f;  // padding
  r = th::check_matrix_close(got.data(), g, Dtype::f32, ref.data(), {.rel = 1e-6}, 0xFF);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(tessera_test::has_substr(r.detail, "padding"));
}

}  // namespace
