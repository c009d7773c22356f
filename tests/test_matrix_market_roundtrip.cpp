// tessera::mm round trips: random matrices written and read back bit for bit,
// CSR against a serial reference (duplicates summed in file order), every
// symmetry and field, dense arrays, layout freedoms (comments, blank lines,
// tabs, CR LF, case), the parallel parse against the serial one, and the
// writer's all-or-nothing guarantee.
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include <sys/stat.h>

#include "matrix_market_test_support.hpp"

namespace {

using namespace mm_test;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

template <class T>
class MatrixMarketRoundTrip : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MatrixMarketRoundTrip, ValueTypes);

TYPED_TEST(MatrixMarketRoundTrip, RandomCooWriteReadAndCsr) {
  using T = TypeParam;
  ScratchDir dir;
  std::mt19937_64 rng(20261127);
  struct Shape {
    std::int64_t rows, cols;
    std::size_t nnz;
  };
  std::vector<Shape> shapes = {{1, 1, 1}, {1, 1, 0}, {0, 0, 0}, {5, 0, 0}, {0, 7, 0}, {1, 1, 3},
                               {1, 97, 40}, {97, 1, 40}, {300, 200, 50}, {13, 17, 221}};
  for (int k = 0; k < 12; ++k) {
    const std::int64_t r = 1 + static_cast<std::int64_t>(rng() % 400), c = 1 + static_cast<std::int64_t>(rng() % 400);
    shapes.push_back({r, c, static_cast<std::size_t>(rng() % 3000)});
  }
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s.rows << "x" << s.cols << " nnz " << s.nnz);
    const auto coo = random_coo<T>(rng, s.rows, s.cols, s.nnz, /*dups=*/true);
    const std::string path = dir.path("m.mtx");
    if (static_cast<std::int64_t>(s.nnz) > s.rows * s.cols) {  // more entries than positions: no such file
      EXPECT_NE(error_of([&] { mm::write_coo(path, coo); }).find("more than its positions"), std::string::npos);
      EXPECT_LE(dir.entries(), 1u);  // no temporary left
      EXPECT_TRUE(same_csr(mm::to_csr(coo, 2), reference_csr(coo)));
      continue;
    }
    mm::write_coo(path, coo);
    EXPECT_EQ(dir.entries(), 1u);  // no temporary left beside it
    for (const auto& opt : {one_thread(), many_chunks(3)}) {
      EXPECT_TRUE(same_coo(mm::read_coo<T>(path, opt), coo));
      const auto csr = mm::read_csr<T>(path, opt);
      EXPECT_TRUE(well_formed(csr));
      EXPECT_TRUE(same_csr(csr, reference_csr(coo)));
    }
    const auto ref = reference_csr(coo);
    EXPECT_TRUE(same_csr(mm::to_csr(coo, 3), ref));
    mm::write_csr(path, ref);
    EXPECT_TRUE(same_csr(mm::read_csr<T>(path), ref));
    const auto h = mm::read_header(path);
    EXPECT_EQ(h.rows, s.rows);
    EXPECT_EQ(h.cols, s.cols);
    EXPECT_EQ(h.entries, ref.nnz());
  }
}

TYPED_TEST(MatrixMarketRoundTrip, DenseArraysAndVectors) {
  using T = TypeParam;
  ScratchDir dir;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  for (auto [rows, cols] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {0, 3}, {17, 1}, {5, 9}, {1000, 3}}) {
    mm::Dense<T> d;
    d.rows = rows;
    d.cols = cols;
    for (std::int64_t k = 0; k < rows * cols; ++k) d.values.push_back(static_cast<T>(g(rng)));
    const auto path = dir.path("a.mtx");
    mm::write_array(path, d);
    for (const auto& opt : {one_thread(), many_chunks(3)}) {
      const auto back = mm::read_array<T>(path, opt);
      EXPECT_EQ(back.rows, rows);
      EXPECT_EQ(back.cols, cols);
      ASSERT_EQ(back.values.size(), d.values.size());
      for (std::size_t k = 0; k < d.values.size(); ++k) EXPECT_TRUE(same_bits(back.values[k], d.values[k])) << k;
    }
    mm::write_vector<T>(path, d.values);
    const auto v = mm::read_array<T>(path);
    EXPECT_EQ(v.rows, rows * cols);
    EXPECT_EQ(v.cols, 1);
    EXPECT_EQ(v.values.size(), d.values.size());
  }
  // Column-major, as the format says.
  const auto m = mm::parse_array<T>("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n", "m");
  EXPECT_EQ(m.values, (std::vector<T>{1, 2, 3, 4, 5, 6}));  // (0,0) (1,0) (0,1) ...
  const auto i = mm::parse_array<T>("%%MatrixMarket matrix array integer general\n2 1\n-7\n+3\n", "m");
  EXPECT_EQ(i.values, (std::vector<T>{-7, 3}));
}

// Lower-triangle text of a random symmetric or skew-symmetric matrix, and the
// full matrix it stands for.
template <class T>
std::pair<std::string, mm::Coo<T>> random_symmetric(std::mt19937_64& rng, std::int64_t n, bool skew, bool pattern) {
  std::vector<std::string> lines;
  mm::Coo<T> full;
  full.rows = full.cols = n;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      if (skew && i == j) continue;
      if (rng() % 3 != 0) continue;
      const T v = pattern ? T(1) : static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(8);
      lines.push_back(pattern ? std::to_string(i + 1) + " " + std::to_string(j + 1)
                              : std::to_string(i + 1) + " " + std::to_string(j + 1) + " " + std::to_string(v));
      full.row.push_back(static_cast<std::int32_t>(i));
      full.col.push_back(static_cast<std::int32_t>(j));
      full.val.push_back(v);
      if (i != j) {
        full.row.push_back(static_cast<std::int32_t>(j));
        full.col.push_back(static_cast<std::int32_t>(i));
        full.val.push_back(skew ? -v : v);
      }
    }
  std::string text = std::string("%%MatrixMarket matrix coordinate ") + (pattern ? "pattern " : "real ") +
                     (skew ? "skew-symmetric" : "symmetric") + "\n% a comment\n" + std::to_string(n) + " " +
                     std::to_string(n) + " " + std::to_string(lines.size()) + "\n";
  for (const auto& l : lines) text += l + "\n";
  return {text, full};
}

TYPED_TEST(MatrixMarketRoundTrip, SymmetricSkewAndPatternExpand) {
  using T = TypeParam;
  std::mt19937_64 rng(99);
  for (std::int64_t n : {1, 2, 7, 60}) {
    for (auto [skew, pattern] : {std::pair{false, false}, {true, false}, {false, true}}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " skew " << skew << " pattern " << pattern);
      const auto [text, full] = random_symmetric<T>(rng, n, skew, pattern);
      for (const auto& opt : {one_thread(), many_chunks(3)}) {
        EXPECT_TRUE(same_coo(mm::parse_coo<T>(text, "s.mtx", opt), full));
        const auto csr = mm::parse_csr<T>(text, "s.mtx", opt);
        EXPECT_TRUE(well_formed(csr));
        EXPECT_TRUE(same_csr(csr, reference_csr(full)));
      }
    }
  }
  // An explicit zero on a skew-symmetric diagonal is allowed (and kept).
  const auto z = mm::parse_coo<T>("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n1 1 0\n2 1 3\n", "z");
  EXPECT_EQ(z.val, (std::vector<T>{0, 3, -3}));
}

TYPED_TEST(MatrixMarketRoundTrip, IntegerAndPatternGeneral) {
  using T = TypeParam;
  const auto i = mm::parse_csr<T>(
      "%%MatrixMarket matrix coordinate integer general\n3 3 4\n3 1 -12\n1 2 +7\n3 1 2\n2 2 0\n", "i");
  EXPECT_EQ(i.row_offsets, (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(i.col_indices, (std::vector<std::int32_t>{1, 1, 0}));
  EXPECT_EQ(i.values, (std::vector<T>{7, 0, -10}));  // the duplicate (3,1) summed
  const auto p = mm::parse_csr<T>("%%MatrixMarket matrix coordinate pattern general\n2 4 3\n2 4\n1 3\n2 4\n", "p");
  EXPECT_EQ(p.row_offsets, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(p.col_indices, (std::vector<std::int32_t>{2, 3}));
  EXPECT_EQ(p.values, (std::vector<T>{1, 2}));  // pattern entries are 1; the duplicate sums to 2
}

TEST(MatrixMarketLayout, CommentsBlankLinesTabsCrLfCaseSignsAndSpecialValues) {
  const std::string text =
      "%%MatrixMarket MATRIX Coordinate REAL General\r\n"
      "%\r\n"
      "\r\n"
      "   % indented comment\n"
      "  3\t3   5  \r\n"
      "\n"
      "1 1 1e3\r\n"
      "\t2\t2\t-.5  \n"
      "\n"
      "3 3 +2.5E-1\n"
      "3 1 inf\n"
      "1 3 nan";  // no final LF
  const auto c = mm::parse_coo<double>(text, "layout.mtx");
  ASSERT_EQ(c.nnz(), 5);
  EXPECT_EQ(c.row, (std::vector<std::int32_t>{0, 1, 2, 2, 0}));
  EXPECT_EQ(c.col, (std::vector<std::int32_t>{0, 1, 2, 0, 2}));
  EXPECT_EQ(c.val[0], 1000.0);
  EXPECT_EQ(c.val[1], -0.5);
  EXPECT_EQ(c.val[2], 0.25);
  EXPECT_TRUE(std::isinf(c.val[3]));
  EXPECT_TRUE(std::isnan(c.val[4]));
  EXPECT_TRUE(same_coo(mm::parse_coo<double>(text, "layout.mtx", many_chunks(5)), c));
  // Underflow reads as zero; 'double' is real's alias.
  const auto u = mm::parse_coo<float>("%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 1e-60\n", "u");
  EXPECT_EQ(u.val[0], 0.0f);
}

TEST(MatrixMarketParallel, ManyChunksMatchOneThreadOnALargerFile) {
  ScratchDir dir;
  std::mt19937_64 rng(5);
  const auto coo = random_coo<double>(rng, 5000, 3000, 200000, true);
  const auto path = dir.path("big.mtx");
  mm::write_coo(path, coo);
  const auto serial = mm::read_csr<double>(path, one_thread());
  for (unsigned t : {2u, 3u, 8u}) {
    EXPECT_TRUE(same_csr(mm::read_csr<double>(path, many_chunks(t)), serial)) << t;
    EXPECT_TRUE(same_coo(mm::read_coo<double>(path, many_chunks(t)), coo)) << t;
  }
  EXPECT_TRUE(same_csr(serial, reference_csr(coo)));
}

TEST(MatrixMarketWriter, AllOrNothing) {
  ScratchDir dir;
  const auto path = dir.path("keep.mtx");
  spit(path, "precious");
  mm::Coo<double> bad;
  bad.rows = bad.cols = 2;
  bad.row = {0, 2};  // row 2 is outside a 2 x 2 matrix
  bad.col = {0, 0};
  bad.val = {1, 2};
  const std::string e = error_of([&] { mm::write_coo(path, bad); });
  EXPECT_NE(e.find("outside the 2 x 2 matrix"), std::string::npos) << e;
  EXPECT_EQ(slurp(path), "precious");
  EXPECT_EQ(dir.entries(), 1u);
  mm::Csr<double> broken;
  broken.rows = broken.cols = 2;
  broken.row_offsets = {0, 2, 1};
  broken.col_indices = {0};
  broken.values = {1};
  EXPECT_NE(error_of([&] { mm::write_csr(path, broken); }), "");
  EXPECT_EQ(slurp(path), "precious");
  EXPECT_NE(error_of([&] { mm::write_coo(dir.path("no/such/dir/x.mtx"), mm::Coo<double>{}); }).find("no/such/dir"),
            std::string::npos);
  EXPECT_EQ(dir.entries(), 1u);
  // A good write replaces the file.
  bad.row = {0, 1};
  mm::write_coo(path, bad);
  EXPECT_EQ(slurp(path), "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 1 2\n");
  EXPECT_EQ(dir.entries(), 1u);
  EXPECT_NE(error_of([&] { (void)mm::read_coo<double>(dir.path("missing.mtx")); }).find("missing.mtx: cannot open"),
            std::string::npos);
}

}  // namespace

namespace {

// Number texts of every shape the fast paths see or must refuse: shortest
// round-trip forms, fixed digit counts up to 25, leading/trailing zeros,
// exponents at and past the fast path's limits, midpoint-prone short values.
std::vector<std::string> number_texts(std::mt19937_64& rng, int count) {
  std::vector<std::string> out = {"0", "-0", "0.0", "1", "-1", ".5", "5.", "00012", "0.000000000000000000000000001",
                                  "1e27", "1e28", "1e-27", "1e-28", "9007199254740993", "9007199254740992.5",
                                  "18446744073709551615", "18446744073709551616", "9999999999999999999",
                                  "0.1", "0.30000000000000004", "3.4028235e38", "1.17549435e-38", "16777217",
                                  "2.5E+3", "7e0", "123456789012345678901234567890"};
  std::uniform_real_distribution<double> u(-1, 1);
  char buf[64];
  for (int k = 0; k < count; ++k) {
    const double d = std::ldexp(u(rng), static_cast<int>(rng() % 120) - 60);
    switch (rng() % 4) {
      case 0:
        out.emplace_back(buf, std::to_chars(buf, buf + 64, d).ptr);
        break;
      case 1:
        out.emplace_back(buf, std::to_chars(buf, buf + 64, static_cast<float>(d)).ptr);
        break;
      case 2:
        std::snprintf(buf, sizeof buf, "%.*g", 1 + static_cast<int>(rng() % 25), d);
        out.emplace_back(buf);
        break;
      default: {
        std::string s;
        const int digits = 1 + static_cast<int>(rng() % 21), dot = static_cast<int>(rng() % (digits + 1));
        for (int i = 0; i < digits; ++i) {
          if (i == dot) s += '.';
          s += static_cast<char>('0' + rng() % 10);
        }
        if (rng() % 2) {
          s += 'e';  // (appended apart: GCC 12's -Wrestrict misfires on "e" + std::string)
          s += std::to_string(static_cast<int>(rng() % 70) - 35);
        }
        out.push_back(s);
      }
    }
  }
  return out;
}

template <class T>
void expect_same_as_from_chars() {
  std::mt19937_64 rng(sizeof(T));
  std::string text = "%%MatrixMarket matrix array real general\n";
  std::vector<T> want;
  std::string body;
  for (const auto& s : number_texts(rng, 200000)) {
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size()) continue;  // out of range for T: not this test's case
    want.push_back(v);
    body += (rng() % 3 == 0 ? "  " : "") + s + "\n";
  }
  text += std::to_string(want.size()) + " 1\n" + body;
  const auto got = mm::parse_array<T>(text, "numbers", many_chunks(2));
  ASSERT_EQ(got.values.size(), want.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (!same_bits(got.values[k], want[k]) && wrong++ < 10)
      ADD_FAILURE() << "value " << k << ": " << got.values[k] << " vs from_chars " << want[k];
  EXPECT_EQ(wrong, 0u);
}

TEST(MatrixMarketNumbers, FastPathsMatchFromCharsBitForBit) {
  expect_same_as_from_chars<double>();
  expect_same_as_from_chars<float>();
}

}  // namespace

namespace {

// A pipe cannot be mapped: it is read into memory, with the same result.
TEST(MatrixMarketInput, PipesAreReadLikeFiles) {
  ScratchDir dir;
  const std::string fifo = dir.path("pipe.mtx");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n2 1 0.5\n1 2 -3\n";
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    out << text;
  });
  const auto got = mm::read_csr<double>(fifo);
  writer.join();
  EXPECT_TRUE(same_csr(got, mm::parse_csr<double>(text, "text")));
  EXPECT_EQ(got.values, (std::vector<double>{-3, 0.5}));
}

}  // namespace
