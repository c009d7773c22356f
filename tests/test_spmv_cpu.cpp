// spmv on the CPU: the format conversions (each format's host product
// against a plain CSR loop, and the layouts themselves), the CPU rungs
// through the public API, the argument and structure checks, and the
// harness's per-row check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "families/spmv/formats.hpp"
#include "families/spmv/nnz_split.hpp"
#include "families/spmv/policy.hpp"
#if TESSERA_HAVE_CUDA
#include "families/spmv/cuda_rungs.hpp"
#endif
#include "families/spmv/problem_check.hpp"
#include "spmv_test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

namespace {

using namespace tessera_test::spmv;
namespace f = tessera::spmv_impl::formats;

template <class T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      ADD_FAILURE() << what << ": y[" << i << "] = " << got[i] << ", CSR loop gives " << want[i];
      return;
    }
}

// Every format's product equals the CSR loop's bits (same terms, same order).
template <class T>
void check_conversions(const Shape& s) {
  const auto mat = build<T>(s, 11);
  const auto a = mat.view();
  const auto x = random_vector<T>(a.cols, 5);
  const auto y0 = random_vector<T>(a.rows, 6);
  for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{-1.5, 0.5}}) {
    const std::string tag = s.name + " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
    std::vector<T> want = naive(a, x, y0, alpha, beta);
    want.resize(std::max<std::size_t>(want.size(), 1));
    auto run = [&](const auto& format, const std::string& name) {
      std::vector<T> y = y0;
      f::spmv_host(format, x.data(), y.data(), alpha, beta);
      expect_same_bits(y, want, name + " " + tag);
    };
    run(f::to_coo(a), "coo");
    run(f::to_ell(a, f::row_stats(a).max_length), "ell");
    run(f::to_hyb(a, f::choose_hyb_width(f::row_stats(a), a.rows, sizeof(T))), "hyb (chosen width)");
    run(f::to_hyb(a, 2), "hyb (width 2)");
    run(f::to_hyb(a, 0), "hyb (width 0: all COO)");
    run(f::to_jds(a), "jds");
    run(f::to_sliced(a, 256, std::max<std::int64_t>(a.rows, 1)), "jds_ell_sections");
    run(f::to_sliced(a, 32, 1024), "sell-32-1024");
    run(f::to_sliced(a, 3, 5), "sell-3-5");
    // As the rungs build them: the rows past the cut in their own part (and
    // small cuts, so that every shape has some).
    const std::int64_t cut = f::long_row_cut(a.rows, a.nnz);
    for (const std::int64_t c : {cut, std::int64_t(2), std::int64_t(0)}) {
      const std::string at = " cut " + std::to_string(c);
      run(f::to_jds(a, c), "jds" + at);
      run(f::to_sliced(a, 256, std::max<std::int64_t>(a.rows, 1), c), "jds_ell_sections" + at);
      run(f::to_sliced(a, 32, 1024, c), "sell-32-1024" + at);
    }
  }
}

class SpmvShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(SpmvShapes, FormatsMatchCsrFloat) { check_conversions<float>(GetParam()); }
TEST_P(SpmvShapes, FormatsMatchCsrDouble) { check_conversions<double>(GetParam()); }

// The CPU rungs through the public API (host pointers), against the naive
// loop with the per-row bound; beta == 0 must not read y (NaN poison).
template <class T>
void check_cpu_rungs(const Shape& s) {
  const auto mat = build<T>(s, 21);
  const auto a = mat.view();
  const auto x = random_vector<T>(a.cols, 7);
  const auto y0 = random_vector<T>(a.rows, 8);
  for (const char* variant : {"cpu_reference", "cpu_openmp"})
    for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{2.0, -0.75}}) {
      std::vector<T> y = y0;
      if (beta == 0) std::fill(y.begin(), y.end(), std::numeric_limits<T>::quiet_NaN());
      tessera::spmv(a, x.data(), a.rows ? y.data() : nullptr,
                    {.alpha = alpha, .beta = beta, .validate_structure = true, .variant = variant});
      expect_close(a, x, y0, alpha, beta, y, s.name + " " + variant);
    }
}

TEST_P(SpmvShapes, CpuRungsFloat) { check_cpu_rungs<float>(GetParam()); }
TEST_P(SpmvShapes, CpuRungsDouble) { check_cpu_rungs<double>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Spmv, SpmvShapes, ::testing::ValuesIn(shapes()),
                         [](const auto& info) { return info.param.name; });

TEST(SpmvFormats, EllIsColumnMajorAndPadded) {
  const auto mat = build<float>(shapes()[3], 3);  // empty rows
  const auto a = mat.view();
  const auto e = f::to_ell(a, f::row_stats(a).max_length);
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (std::int64_t k = 0; k < e.width; ++k) {
      const auto at = std::size_t(k * a.rows + r);
      const std::int64_t len = a.row_offsets[r + 1] - a.row_offsets[r];
      if (k < len) {
        ASSERT_EQ(e.col[at], a.col_indices[a.row_offsets[r] + k]) << "row " << r << " entry " << k;
      } else {
        ASSERT_EQ(e.col[at], f::PAD_COLUMN);
        ASSERT_EQ(e.val[at], 0.0f);
      }
    }
}

TEST(SpmvFormats, JdsSortsRowsAndKeepsAPermutation) {
  const auto mat = build<double>(shapes()[4], 3);  // a huge row
  const auto a = mat.view();
  const auto j = f::to_jds(a);
  std::vector<std::int32_t> sorted = j.perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], std::int32_t(i));
  for (std::size_t i = 1; i < j.length.size(); ++i) ASSERT_GE(j.length[i - 1], j.length[i]);
  EXPECT_EQ(j.length[0], 8000);  // the huge row first
  EXPECT_EQ(j.diag_offsets.back(), a.nnz);
  EXPECT_EQ(std::size_t(j.bytes()), j.perm.size() * 8 + j.diag_offsets.size() * 8 + std::size_t(a.nnz) * 12);
}

// The cut: rows past it leave the format for the long-row part (longest
// first, the huge ones a prefix); every row is in exactly one of the two,
// and the format's own entries are only the kept rows'.
TEST(SpmvFormats, LongRowsLeaveTheFormat) {
  for (const Shape& shape : {shapes()[4], shapes()[8]}) {  // a huge row; a power law
    const auto mat = build<float>(shape, 7);
    const auto a = mat.view();
    const std::int64_t cut = f::long_row_cut(a.rows, a.nnz);
    EXPECT_GE(cut, f::LONG_ROW_MIN_CUT);
    const auto check = [&](const std::vector<std::int32_t>& perm, const f::LongRows<float>& l, std::size_t cells,
                           const std::string& what) {
      std::vector<std::int32_t> all = perm;
      all.insert(all.end(), l.row.begin(), l.row.end());
      std::sort(all.begin(), all.end());
      ASSERT_EQ(all.size(), std::size_t(a.rows)) << what;
      for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], std::int32_t(i)) << what;
      std::int64_t long_nnz = 0, huge = 0;
      for (std::int32_t r : perm) ASSERT_LE(f::row_length(a, r), cut) << what;
      for (std::size_t i = 0; i < l.row.size(); ++i) {
        const std::int64_t len = f::row_length(a, l.row[i]);
        ASSERT_GT(len, cut) << what;
        ASSERT_EQ(l.offsets[i + 1] - l.offsets[i], len) << what;
        if (i > 0) {
          ASSERT_LE(len, f::row_length(a, l.row[i - 1])) << what;
        }
        huge += len > f::HUGE_ROW;
        long_nnz += len;
      }
      EXPECT_GT(l.count(), 0) << what;
      EXPECT_EQ(l.huge, huge) << what;
      EXPECT_EQ(std::int64_t(l.col.size()), long_nnz) << what;
      EXPECT_GE(std::int64_t(cells) + long_nnz, a.nnz) << what;
    };
    const auto j = f::to_jds(a, cut);
    check(j.perm, j.long_rows, j.col.size(), shape.name + " jds");
    EXPECT_EQ(std::int64_t(j.col.size()) + std::int64_t(j.long_rows.col.size()), a.nnz);
    EXPECT_LE(std::int64_t(j.diag_offsets.size()) - 1, cut);  // no diagonal past the cut
    const auto s = f::to_sliced(a, 32, 1024, cut);
    check(s.perm, s.long_rows, s.col.size(), shape.name + " sell");
    for (std::int32_t w : s.slice_width) ASSERT_LE(w, cut);
  }
  // A regular matrix keeps every row (the stencils' speed is unchanged).
  const auto lap_matrix = build<float>(shapes()[7], 7);
  const auto lap = lap_matrix.view();
  EXPECT_EQ(f::to_jds(lap, f::long_row_cut(lap.rows, lap.nnz)).long_rows.count(), 0);
}

TEST(SpmvFormats, SellSortsOnlyWithinWindows) {
  const auto mat = build<float>(shapes()[3], 4);
  const auto a = mat.view();
  const auto s = f::to_sliced(a, 4, 16);
  for (std::size_t i = 0; i < s.perm.size(); ++i) ASSERT_EQ(std::int64_t(s.perm[i]) / 16, std::int64_t(i) / 16);
  std::int64_t cells = 0;
  for (std::int64_t sl = 0; sl < s.slices(); ++sl) cells += std::int64_t(s.slice_width[std::size_t(sl)]) * 4;
  EXPECT_EQ(std::int64_t(s.col.size()), cells);
  EXPECT_GE(cells, a.nnz);
}

// The chosen HYB width is the cheapest of all widths under the cost model.
TEST(SpmvFormats, HybWidthMinimisesTheBytesModel) {
  const auto mat = build<float>(shapes()[8], 9);  // power law
  const auto a = mat.view();
  const auto stats = f::row_stats(a);
  auto cost = [&](std::int64_t w) {
    std::int64_t overflow = 0;
    for (std::int64_t r = 0; r < a.rows; ++r) overflow += std::max<std::int64_t>(0, f::row_length(a, r) - w);
    return f::ell_bytes(a.rows, w, 4) + f::HYB_COO_WEIGHT * double(overflow) * 12.0;
  };
  const std::int64_t chosen = f::choose_hyb_width(stats, a.rows, 4);
  const double best = cost(chosen);
  for (std::int64_t w = 0; w <= stats.max_length; w += std::max<std::int64_t>(1, w / 8)) EXPECT_LE(best, cost(w)) << w;
  EXPECT_GT(chosen, 0);
  EXPECT_LT(chosen, stats.max_length);  // the long rows' tails go to COO
}

TEST(SpmvFormats, EllRefusesExplodingPadding) {
  EXPECT_TRUE(f::ell_fits(1000, 5, 5000, 4));
  EXPECT_FALSE(f::ell_fits(2'000'000, 300'000, 32'000'000, 4));
}

// ---- the public API's checks: an Error naming the argument and the first
// bad index, y untouched.

struct Broken {
  std::vector<std::int64_t> off{0, 2, 3, 5};
  std::vector<std::int32_t> col{0, 2, 1, 0, 2};
  std::vector<float> val{1, 2, 3, 4, 5};
  std::vector<float> x{1, 1, 1};
  std::vector<float> y{7, 7, 7};
  tessera::Csr<float> a() const { return {3, 3, 5, off.data(), col.data(), val.data()}; }
};

void expect_error(const std::function<void()>& call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(SpmvApi, ChecksArgumentsBeforeWriting) {
  Broken b;
  const tessera::SpmvOptions cpu{.validate_structure = true, .variant = "cpu_openmp"};
  auto run = [&](tessera::Csr<float> a, const float* x, float* y) { tessera::spmv(a, x, y, cpu); };
  {
    auto a = b.a();
    a.row_offsets = nullptr;
    expect_error([&] { run(a, b.x.data(), b.y.data()); }, "row_offsets is a null pointer");
    a = b.a();
    a.col_indices = nullptr;
    expect_error([&] { run(a, b.x.data(), b.y.data()); }, "col_indices is a null pointer");
    a = b.a();
    a.values = nullptr;
    expect_error([&] { run(a, b.x.data(), b.y.data()); }, "values is a null pointer");
    expect_error([&] { run(b.a(), nullptr, b.y.data()); }, "x is a null pointer");
    expect_error([&] { run(b.a(), b.x.data(), nullptr); }, "y is a null pointer");
    a = b.a();
    a.rows = -1;
    expect_error([&] { run(a, b.x.data(), b.y.data()); }, "rows = -1");
  }
  {
    std::vector<float> xy(3, 1.0f);
    expect_error([&] { run(b.a(), xy.data(), xy.data()); }, "overlap");
  }
  {
    Broken c;
    c.off = {0, 3, 2, 5};
    expect_error([&] { run(c.a(), c.x.data(), c.y.data()); }, "row_offsets[2] = 2 is less than row_offsets[1] = 3");
    EXPECT_EQ(c.y, (std::vector<float>{7, 7, 7}));
  }
  {
    Broken c;
    c.off = {0, 2, 3, 4};
    expect_error([&] { run(c.a(), c.x.data(), c.y.data()); }, "row_offsets[3] = 4 must equal nnz = 5");
  }
  {
    Broken c;
    c.off = {1, 2, 3, 5};
    expect_error([&] { run(c.a(), c.x.data(), c.y.data()); }, "row_offsets[0] = 1, must be 0");
  }
  {
    Broken c;
    c.col = {0, 2, 3, 0, -1};
    expect_error([&] { run(c.a(), c.x.data(), c.y.data()); }, "col_indices[2] = 3 is outside [0, cols = 3)");
    EXPECT_EQ(c.y, (std::vector<float>{7, 7, 7}));
  }
  expect_error([&] { tessera::spmv(b.a(), b.x.data(), b.y.data(), {.variant = "no_such_rung"}); }, "no_such_rung");
}

TEST(SpmvApi, DefaultsAndWorkspaceQuery) {
  Broken b;
  const auto a = b.a();
  EXPECT_EQ(tessera::spmv_workspace_bytes(a, {.variant = "cpu_reference"}), 0u);
  EXPECT_FALSE(tessera::spmv_default_variant(tessera::Dtype::f32, 3, 3, 5).empty());
  tessera::spmv(a, b.x.data(), b.y.data(), {.alpha = 2, .beta = 1, .variant = "cpu_reference"});
  // rows: 0: 1 + 2 = 3, 1: 3, 2: 4 + 5 = 9; y = 2 A x + y
  EXPECT_EQ(b.y, (std::vector<float>{13, 13, 25}));
}

// The pick: a rule on the mean row length, CSR rungs only (the API takes
// CSR; a format rung would convert on every call).
TEST(SpmvPolicy, PicksByMeanRowLength) {
  namespace sp = tessera::spmv_impl;
  const auto spec = [](std::int64_t rows, std::int64_t nnz) {
    return sp::SpmvSpec{tessera::Dtype::f32, rows, rows, nnz};
  };
  const std::int64_t lap = 4096LL * 4096, sten = 128LL * 128 * 128, power = 1LL << 21;
  const sp::SpmvSpec laplace = spec(lap, 5 * lap - 4 * 4096), stencil = spec(sten, 382LL * 382 * 382),
                     power_law = spec(power, 16 * power);
  EXPECT_TRUE(sp::short_rows(laplace));
  EXPECT_FALSE(sp::short_rows(stencil));
  EXPECT_FALSE(sp::short_rows(power_law));
  EXPECT_TRUE(sp::short_rows(spec(1000, 8000)));  // the boundary: mean exactly 8
  EXPECT_FALSE(sp::short_rows(spec(1000, 8001)));
  EXPECT_FALSE(sp::short_rows(spec(0, 0)));
  for (const auto& s : {laplace, stencil, power_law, spec(1000, 8001), spec(0, 0)})
    EXPECT_EQ(sp::policy_pick(s, false), "cpu_openmp");  // no GPU: the parallel CPU rung
#if TESSERA_HAVE_CUDA
  EXPECT_EQ(sp::policy_pick(laplace, true), "csr_scalar_guarded");
  EXPECT_EQ(sp::policy_pick(spec(1000, 8000), true), "csr_scalar_guarded");
  EXPECT_EQ(sp::policy_pick(stencil, true), "csr_nnz_split");
  EXPECT_EQ(sp::policy_pick(power_law, true), "csr_nnz_split");
  EXPECT_EQ(sp::policy_pick(spec(1000, 8001), true), "csr_nnz_split");
  EXPECT_EQ(sp::policy_pick(spec(0, 0), true), "csr_nnz_split");
  for (const sp::PolicyRule& rule : sp::kGpuPolicy) {  // each a CUDA CSR rung, with its evidence
    const auto& v = sp::variants_ladder().at(std::string(rule.variant), "test");
    EXPECT_EQ(v.info.backend, tessera::Backend::cuda) << rule.variant;
    EXPECT_EQ(v.prepare, nullptr) << rule.variant << " would convert the matrix on every call";
    EXPECT_NE(rule.evidence.find("H100"), std::string_view::npos) << rule.variant;
  }
#endif
}

// cuSPARSE refuses more entries than cells (duplicates); the vendor rung
// declines exactly those shapes.
TEST(SpmvVendor, DeclinesOnlyMoreEntriesThanCells) {
#if TESSERA_HAVE_CUDA
  namespace sp = tessera::spmv_impl;
  const auto refuses = [](std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
    return sp::vendor_refuses_duplicates({tessera::Dtype::f64, rows, cols, nnz});
  };
  EXPECT_TRUE(refuses(1, 1, 2));
  EXPECT_FALSE(refuses(1, 1, 1));
  EXPECT_FALSE(refuses(3, 2, 6));
  EXPECT_TRUE(refuses(3, 2, 7));
  EXPECT_FALSE(refuses(0, 5, 0));
  EXPECT_FALSE(refuses(1LL << 40, 1LL << 40, 1LL << 50));  // no overflow
  EXPECT_FALSE(sp::variants_ladder().at("cusparse_spmv", "test").supports({tessera::Dtype::f32, 1, 1, 2}));
  EXPECT_TRUE(sp::variants_ladder().at("cusparse_spmv", "test").supports({tessera::Dtype::f32, 1, 1, 1}));
  EXPECT_TRUE(sp::variants_ladder().at("csr_nnz_split", "test").supports({tessera::Dtype::f32, 1, 1, 2}));
#else
  GTEST_SKIP() << "CPU-only build: no vendor rung";
#endif
}

// csr_subwarp_vec4's group: one step of 4 entries a lane covers the mean
// row and its alignment slack (up to 3 entries before the row's start).
TEST(SpmvSubwarp, LanesCoverTheMeanRow) {
#if TESSERA_HAVE_CUDA
  namespace sp = tessera::spmv_impl;
  const auto lanes = [](std::int64_t rows, std::int64_t nnz) {
    return sp::csr_subwarp_vec4_lanes({tessera::Dtype::f32, rows, rows, nnz});
  };
  EXPECT_EQ(lanes(128LL * 128 * 128, 382LL * 382 * 382), 8);  // 27-point stencil: mean 26.6
  EXPECT_EQ(lanes(1000, 5000), 4);                            // mean 5
  EXPECT_EQ(lanes(1000, 0), 2);
  EXPECT_EQ(lanes(0, 0), 2);
  EXPECT_EQ(lanes(10, 100000), 32);
  for (std::int64_t mean = 1; mean <= 120; ++mean) {
    const int l = lanes(1000, 1000 * mean);
    EXPECT_GE(4 * l, mean + 3) << "mean " << mean;  // one step covers a mean row, however aligned
    EXPECT_TRUE(l == 2 || 4 * (l / 2) < mean + 4) << "mean " << mean;  // and half as many would not
  }
#else
  GTEST_SKIP() << "CPU-only build: no CUDA rungs";
#endif
}

// ---- the harness's check: passes the reference, fails a wrong row, a NaN
// and an unwritten (poisoned) row.
TEST(SpmvCheck, BoundCatchesWrongRows) {
  const auto mat = build<float>(shapes()[3], 12);
  const auto a = mat.view();
  const auto x = random_vector<float>(a.cols, 13);
  const auto y0 = random_vector<float>(a.rows, 14);
  tessera::spmv_impl::check::Expected<float> expected(a, x.data(), y0.data(), 1.5, 0.5);
  std::vector<float> y = naive(a, x, y0, 1.5, 0.5);
  EXPECT_TRUE(expected.compare(y.data()).ok);
  // A row with entries: off by far more than its bound.
  std::int64_t r = 0;
  while (f::row_length(a, r) < 3) ++r;
  auto wrong = y;
  wrong[std::size_t(r)] += 0.01f * (std::fabs(wrong[std::size_t(r)]) + 1.0f);
  const auto bad = expected.compare(wrong.data());
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.detail.find("y[" + std::to_string(r) + "]"), std::string::npos) << bad.detail;
  auto nan = y;
  nan[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(expected.compare(nan.data()).ok);
}

}  // namespace

// ---- csr_nnz_split's partition (nnz_split.hpp, the kernels' own
// arithmetic), run tile by tile on the host: every row written exactly once,
// with its own entries' sum, on shapes that put row ends on tile edges,
// rows spanning many tiles, empty rows everywhere and no nonzeros at all.
namespace ns = tessera::spmv_impl::nnz_split;

void check_nnz_split_partition(const tessera::spmv_impl::matrices::HostMatrix<double>& mat, const std::string& what) {
  const auto a = mat.view();
  const std::int64_t tiles = ns::tiles_of(a.nnz);
  std::vector<double> carry(std::size_t(tiles), 0.0), head(std::size_t(tiles), 0.0), y(std::size_t(a.rows), 0.0);
  std::vector<std::int64_t> head_row(std::size_t(tiles), -1);
  std::vector<int> writes(std::size_t(a.rows), 0);
  for (std::int64_t t = 0; t < tiles; ++t) {
    const ns::Tile tile = ns::tile_of(a.row_offsets, a.rows, a.nnz, t);
    ASSERT_LE(tile.lo, tile.hi) << what << " tile " << t;
    for (std::int64_t s = 0; s < tile.segments(); ++s) {
      std::int64_t b, e;
      ns::segment_bounds(tile, a.row_offsets, s, b, e);
      ASSERT_LE(tile.begin, b) << what;
      ASSERT_LE(b, e) << what;
      ASSERT_LE(e, tile.end) << what;
      double sum = 0;
      for (std::int64_t k = b; k < e; ++k) sum += a.values[k];  // x = 1: the row's own values
      switch (ns::destination(tile, a.row_offsets, s)) {
        case ns::Destination::carry: carry[std::size_t(t)] = sum; break;
        case ns::Destination::head:
          ASSERT_EQ(head_row[std::size_t(t)], -1) << what << ": two heads in tile " << t;
          head[std::size_t(t)] = sum;
          head_row[std::size_t(t)] = tile.lo + s;
          break;
        case ns::Destination::y:
          y[std::size_t(tile.lo + s)] = sum;
          ++writes[std::size_t(tile.lo + s)];
          break;
      }
    }
  }
  for (std::int64_t t = 0; t < tiles; ++t) {  // the fix-up kernel
    const std::int64_t r = head_row[std::size_t(t)];
    if (r < 0) continue;
    double sum = head[std::size_t(t)];
    for (std::int64_t p = t - 1; p >= ns::first_carry_tile(a.row_offsets, r); --p) sum += carry[std::size_t(p)];
    y[std::size_t(r)] = sum;
    ++writes[std::size_t(r)];
  }
  for (std::int64_t r = 0; r < a.rows; ++r) {
    ASSERT_EQ(writes[std::size_t(r)], 1) << what << ": row " << r << " written " << writes[std::size_t(r)] << " times";
    double want = 0;
    for (std::int64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) want += a.values[k];
    ASSERT_NEAR(y[std::size_t(r)], want, 1e-9 * (1.0 + double(f::row_length(a, r)))) << what << ": row " << r;
  }
}

TEST(SpmvNnzSplit, EveryRowOnceWithItsSum) {
  for (const Shape& s : shapes()) check_nnz_split_partition(build<double>(s, 41), s.name);
  namespace m = tessera::spmv_impl::matrices;
  // Rows ending exactly on tile edges: rows of TILE / 4 entries, and of TILE.
  for (std::int64_t len : {std::int64_t(ns::TILE) / 4, std::int64_t(ns::TILE), std::int64_t(ns::TILE) + 1}) {
    m::HostMatrix<double> mat;
    mat.rows = mat.cols = 40;
    std::vector<std::int64_t> lengths(40, len);
    lengths[3] = lengths[17] = 0;   // empty rows between cut rows
    lengths[39] = 0;                // and trailing
    m::allocate(mat, lengths);
    for (std::size_t k = 0; k < mat.val.size(); ++k) mat.val[k] = double(k % 7) - 3.0;
    check_nnz_split_partition(mat, "rows of " + std::to_string(len));
  }
  // One row longer than many tiles, with empty rows before and after.
  check_nnz_split_partition(m::random_csr<double>({50, 50, 0.0, 0.0, 10 * ns::TILE + 3}, 5), "one row of 10 tiles");
  check_nnz_split_partition(m::random_csr<double>({5000, 300, 1.0, 0.6, 3 * ns::TILE}, 6), "sparse with a long row");
}
