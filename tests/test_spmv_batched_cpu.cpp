// spmv_batched on the host: cpu_reference against tessera::spmv matrix by
// matrix on random batches (edge matrices included), and every argument
// check naming its argument.
#include <gtest/gtest.h>

#include <string>

#include "families/spmv/batched.hpp"
#include "spmv_batched_test_support.hpp"
#include "tessera/core/error.hpp"

namespace {

using namespace tessera_test::batched;

template <class T>
void check_reference(const BatchShape& shape, std::uint64_t seed, double alpha, double beta) {
  const HostBatch<T> h = random_batch<T>(shape, seed);
  const auto x = random_vector<T>(h.col_starts.back(), seed ^ 1);
  const auto y0 = random_vector<T>(h.row_starts.back(), seed ^ 2);
  std::vector<T> got = y0;
  tessera::spmv_batched(h.view(), x.data(), got.data(),
                        {.alpha = alpha, .beta = beta, .validate_structure = true, .variant = "cpu_reference"});
  expect_close(h, x, y0, alpha, beta, per_matrix(h, x, y0, alpha, beta), got);
}

TEST(SpmvBatchedCpu, ReferenceMatchesPerMatrixSpmv) {
  check_reference<float>({.count = 40, .min_rows = 1, .max_rows = 300, .min_len = 0, .max_len = 40, .banded = 0.3,
                          .edges = true},
                         11, 1, 0);
  check_reference<double>({.count = 40, .min_rows = 1, .max_rows = 300, .min_len = 1, .max_len = 40, .banded = 0.3,
                           .edges = true},
                          12, -1.5, 0.5);
  check_reference<float>({.count = 1, .min_rows = 1, .max_rows = 1, .min_len = 1, .max_len = 1}, 13, 2, 1);
}

// batched_nnz_split's search: every entry's matrix, empty matrices (the
// edge ones, rows without entries) never chosen, from any range that holds it.
TEST(SpmvBatchedCpu, MatrixOfFindsTheOwner) {
  const HostBatch<float> h =
      random_batch<float>({.count = 200, .min_rows = 0, .max_rows = 4, .min_len = 0, .max_len = 3, .edges = true}, 3);
  const auto& ns = h.nnz_starts;
  const std::int64_t count = h.count();
  ASSERT_GT(ns.back(), 0);
  std::int64_t empty = 0;
  for (std::int64_t b = 0; b < count; ++b) empty += ns[b] == ns[b + 1];
  EXPECT_GT(empty, 0);  // the search must skip some
  for (std::int64_t k = 0; k < ns.back(); ++k) {
    const std::int64_t m = tessera::spmv_impl::batched::matrix_of(ns.data(), 0, count - 1, k);
    ASSERT_TRUE(ns[m] <= k && k < ns[m + 1]) << "entry " << k << " given to matrix " << m;
    EXPECT_EQ(tessera::spmv_impl::batched::matrix_of(ns.data(), m / 2, count - 1, k), m);
  }
}

TEST(SpmvBatchedCpu, BetaZeroDoesNotReadY) {
  const HostBatch<float> h = random_batch<float>({.count = 6, .min_rows = 2, .max_rows = 50, .max_len = 9}, 5);
  const auto x = random_vector<float>(h.col_starts.back(), 6);
  std::vector<float> y(std::size_t(h.row_starts.back()), std::nanf(""));
  tessera::spmv_batched(h.view(), x.data(), y.data(), {.variant = "cpu_reference"});
  for (float v : y) EXPECT_FALSE(std::isnan(v));
}

TEST(SpmvBatchedCpu, EmptyBatchDoesNothing) {
  tessera::CsrBatch<float> empty{};
  EXPECT_NO_THROW(tessera::spmv_batched(empty, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), {.variant = "cpu_reference"}));
  EXPECT_EQ(tessera::spmv_batched_workspace_bytes(empty, {.variant = "cpu_reference"}), 0u);
}

// The call must throw tessera::Error whose message contains `needle`.
template <class F>
void expect_error(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming " << needle;
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(SpmvBatchedCpu, ArgumentErrorsNameTheArgument) {
  const HostBatch<float> h = random_batch<float>({.count = 5, .min_rows = 3, .max_rows = 20, .max_len = 5}, 9);
  auto x = random_vector<float>(h.col_starts.back(), 1);
  std::vector<float> y(std::size_t(h.row_starts.back()));
  const tessera::SpmvOptions cpu{.variant = "cpu_reference"};
  const tessera::SpmvOptions checked{.validate_structure = true, .variant = "cpu_reference"};
  auto run = [&](tessera::CsrBatch<float> b, const tessera::SpmvOptions& o = {.variant = "cpu_reference"}) {
    return [=, &x, &y] { tessera::spmv_batched(b, x.data(), y.data(), o); };
  };
  auto with = [&](auto change) {
    tessera::CsrBatch<float> b = h.view();
    change(b);
    return b;
  };
  expect_error(run(with([](auto& b) { b.row_starts = nullptr; })), "row_starts");
  expect_error(run(with([](auto& b) { b.col_starts = nullptr; })), "col_starts");
  expect_error(run(with([](auto& b) { b.nnz_starts = nullptr; })), "nnz_starts");
  expect_error(run(with([](auto& b) { b.row_offsets = nullptr; })), "row_offsets");
  expect_error(run(with([](auto& b) { b.values = nullptr; })), "values");
  expect_error(run(with([](auto& b) { b.col_indices = nullptr; })), "col_indices");
  expect_error(run(with([](auto& b) { b.count = -1; })), "count");
  expect_error(run(with([](auto& b) { b.count = 0; })), "count = 0");
  expect_error([&] { tessera::spmv_batched(h.view(), static_cast<const float*>(nullptr), y.data(), cpu); }, "x is a null");
  expect_error([&] { tessera::spmv_batched(h.view(), x.data(), static_cast<float*>(nullptr), cpu); }, "y is a null");
  std::vector<float> shared(std::size_t(h.row_starts.back() + h.col_starts.back()));
  expect_error([&] { tessera::spmv_batched(h.view(), shared.data(), shared.data() + 1, cpu); }, "overlap");
  expect_error(run(h.view(), {.variant = "no_such_variant"}), "no_such_variant");
  // Structure (validate_structure): starts decreasing or off the totals, a
  // matrix's offsets, a column outside its matrix.
  HostBatch<float> bad = h;
  bad.row_starts[2] = bad.row_starts[1] - 1;
  expect_error(run(bad.view(), checked), "row_starts[2]");
  bad = h;
  bad.col_starts[0] = 1;
  expect_error(run(bad.view(), checked), "col_starts[0]");
  bad = h;
  expect_error(run(with([](auto& b) { b.nnz += 1; }), checked), "nnz_starts[5]");
  bad.offsets[std::size_t(bad.row_starts[3] + 3 + 1)] = -1;
  expect_error(run(bad.view(), checked), "row_offsets");
  bad = h;
  bad.col[std::size_t(bad.nnz_starts[4])] = std::int32_t(bad.col_starts[5] - bad.col_starts[4]);
  expect_error(run(bad.view(), checked), "col_indices");
  // Without validate_structure the good batch runs.
  EXPECT_NO_THROW(run(h.view())());
}

}  // namespace

namespace {

using namespace tessera_test::batched;

// The same-pattern batch (the strided-batch baseline's problem): every
// matrix has the first one's shape, offsets and columns, and values of its
// own; uniform_shapes sees it, and a mixed batch is not uniform.
TEST(SpmvBatchedCpu, SamePatternBatchSharesOnePattern) {
  const HostBatch<float> h = random_batch<float>(
      {.count = 12, .min_rows = 20, .max_rows = 90, .min_len = 1, .max_len = 30, .same_pattern = true}, 5);
  const std::int64_t rows = h.rows(0), nnz = h.nnz_starts[1];
  ASSERT_GT(nnz, 0);
  int values_differ = 0;
  for (std::int64_t b = 1; b < h.count(); ++b) {
    ASSERT_EQ(h.rows(b), rows);
    ASSERT_EQ(h.nnz_starts[b + 1] - h.nnz_starts[b], nnz);
    for (std::int64_t r = 0; r <= rows; ++r)
      ASSERT_EQ(h.offsets[std::size_t(h.row_starts[b] + b + r)], h.offsets[std::size_t(r)]) << b;
    for (std::int64_t k = 0; k < nnz; ++k) {
      ASSERT_EQ(h.col[std::size_t(h.nnz_starts[b] + k)], h.col[std::size_t(k)]) << b;
      values_differ += h.val[std::size_t(h.nnz_starts[b] + k)] != h.val[std::size_t(k)];
    }
  }
  EXPECT_GT(values_differ, nnz);  // own values, not copies
  namespace sb = tessera::spmv_impl::batched;
  EXPECT_TRUE(sb::uniform_shapes(h.row_starts.data(), h.col_starts.data(), h.nnz_starts.data(), h.count()));
  const HostBatch<float> mixed =
      random_batch<float>({.count = 12, .min_rows = 20, .max_rows = 90, .min_len = 1, .max_len = 30}, 5);
  EXPECT_FALSE(sb::uniform_shapes(mixed.row_starts.data(), mixed.col_starts.data(), mixed.nnz_starts.data(),
                                  mixed.count()));
  // The CPU reference on it matches spmv matrix by matrix.
  const auto x = random_vector<float>(h.col_starts.back(), 6);
  const auto y0 = random_vector<float>(h.row_starts.back(), 7);
  std::vector<float> y = y0;
  tessera::spmv_batched(h.view(), x.data(), y.data(), {.alpha = -1.5, .beta = 0.5, .variant = "cpu_reference"});
  expect_close(h, x, y0, -1.5, 0.5, per_matrix(h, x, y0, -1.5, 0.5), y);
}

}  // namespace
