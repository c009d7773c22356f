// tessera::mm refuses every malformed file with a tessera::Error whose message
// starts "FILE:LINE: " and says what is wrong; each case is checked on one
// thread and cut into many chunks (the same message must come back).
#include "matrix_market_test_support.hpp"

namespace {

using namespace mm_test;

const std::string GEN = "%%MatrixMarket matrix coordinate real general\n";

struct Case {
  const char* what;
  std::string text;
  int line;
  const char* says;  // a part of the message
};

void expect_refused(const Case& c) {
  SCOPED_TRACE(c.what);
  for (const auto& opt : {one_thread(), many_chunks(3)}) {
    const std::string coo = error_of([&] { (void)mm::parse_coo<double>(c.text, "bad.mtx", opt); });
    const std::string csr = error_of([&] { (void)mm::parse_csr<float>(c.text, "bad.mtx", opt); });
    const std::string prefix = "bad.mtx:" + std::to_string(c.line) + ": ";
    EXPECT_EQ(coo.rfind(prefix, 0), 0u) << "message: " << coo;
    EXPECT_NE(coo.find(c.says), std::string::npos) << "message: " << coo;
    EXPECT_EQ(csr, coo);
  }
}

TEST(MatrixMarketErrors, BannerAndFields) {
  const Case cases[] = {
      {"empty file", "", 1, "empty file"},
      {"no banner", "3 3 1\n1 1 1\n", 1, "missing %%MatrixMarket banner"},
      {"banner glued", "%%MatrixMarketmatrix coordinate real general\n1 1 0\n", 1, "missing %%MatrixMarket"},
      {"three fields", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "3 of its 4 fields"},
      {"five fields", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1, "trailing 'extra'"},
      {"object vector", "%%MatrixMarket vector coordinate real general\n1 1 0\n", 1, "'vector' is not supported"},
      {"unknown object", "%%MatrixMarket tensor coordinate real general\n1 1 0\n", 1, "unknown object 'tensor'"},
      {"unknown format", "%%MatrixMarket matrix sparse real general\n1 1 0\n", 1, "unknown format 'sparse'"},
      {"unknown field", "%%MatrixMarket matrix coordinate quaternion general\n1 1 0\n", 1,
       "unknown field 'quaternion'"},
      {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
       "complex matrices are not supported"},
      {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
       "hermitian matrices are not supported"},
      {"unknown symmetry", "%%MatrixMarket matrix coordinate real upper\n1 1 0\n", 1, "unknown symmetry 'upper'"},
      {"pattern skew", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n1 1 0\n", 1, "not a valid"},
      {"array pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", 1, "not a valid"},
      {"array symmetric", "%%MatrixMarket matrix array real symmetric\n1 1\n1\n", 1, "not supported"},
      {"array where coordinate expected", "%%MatrixMarket matrix array real general\n1 1\n1\n", 1, "read_array"},
  };
  for (const auto& c : cases) expect_refused(c);
}

TEST(MatrixMarketErrors, SizeLine) {
  const Case cases[] = {
      {"missing size line", GEN + "% only comments\n\n", 3, "missing size line"},
      {"two numbers", GEN + "% c\n3 3\n", 3, "the size line has 2 fields"},
      {"four numbers", GEN + "3 3 1 4\n1 1 1\n", 2, "the size line has 4 fields"},
      {"not a number", GEN + "3 x 1\n1 1 1\n", 2, "columns 'x' is not an integer"},
      {"number with garbage", GEN + "3 3 1z\n1 1 1\n", 2, "entries '1z' is not an integer"},
      {"negative rows", GEN + "-3 3 1\n1 1 1\n", 2, "negative number of rows"},
      {"negative entries", GEN + "3 3 -1\n", 2, "negative number of entries"},
      {"beyond 32 bits", GEN + "3000000000 1 1\n1 1 1\n", 2, "indices are 32-bit"},
      {"nnz > rows*cols", GEN + "2 2 5\n1 1 1\n", 2, "stores at most 4"},
      {"symmetric not square", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", 2,
       "must be square"},
      {"symmetric nnz > n(n+1)/2", "%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n1 1 1\n", 2,
       "stores at most 3"},
      {"array size line with 3 numbers", "%%MatrixMarket matrix array real general\n2 2 4\n", 2, "needs 2"},
  };
  for (const auto& c : cases) expect_refused(c);
}

TEST(MatrixMarketErrors, Entries) {
  const Case cases[] = {
      {"truncated", GEN + "3 3 3\n1 1 1\n2 2 2\n", 4, "ends after 2 of the 3 entries"},
      {"truncated mid-line", GEN + "3 3 2\n1 1 1\n2 2", 4, "missing value"},
      {"no entries at all", GEN + "3 3 2\n", 2, "ends after 0 of the 2 entries"},
      {"too many", GEN + "3 3 2\n1 1 1\n2 2 2\n3 3 3\n", 5, "more entries than the 2"},
      {"row zero", GEN + "3 3 1\n0 1 1\n", 3, "row index '0' is out of range 1..3"},
      {"row too big", GEN + "3 3 2\n1 1 1\n4 1 1\n", 4, "row index '4' is out of range"},
      {"column too big", GEN + "3 5 1\n1 6 1\n", 3, "column index '6' is out of range 1..5"},
      {"negative index", GEN + "3 3 1\n-1 1 1\n", 3, "row index '-1' is not a positive integer"},
      {"huge index", GEN + "3 3 1\n99999999999999999999 1 1\n", 3, "out of range"},
      {"non-number value", GEN + "3 3 1\n1 1 abc\n", 3, "value 'abc' is not a number"},
      {"value with garbage", GEN + "3 3 1\n1 1 1.5x\n", 3, "value '1.5x' is not a number"},
      {"two dots", GEN + "3 3 1\n1 1 1..2\n", 3, "not a number"},
      {"trailing garbage", GEN + "3 3 2\n1 1 1\n2 2 2.0 extra\n", 4, "trailing 'extra'"},
      {"missing value", GEN + "3 3 1\n1 1\n", 3, "missing value"},
      {"lone carriage return", GEN + "3 3 2\n1 1 1\n2 2 2\rx\n", 4, "carriage return inside the line"},
      {"missing column", GEN + "3 3 1\n1\n", 3, "missing column index"},
      {"float index", GEN + "3 3 1\n1.0 1 1\n", 3, "not a positive integer"},
      {"comment among entries", GEN + "3 3 2\n1 1 1\n% late\n2 2 2\n", 4, "comment among the entries"},
      {"integer field with a real", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3,
       "not an integer"},
      {"pattern with a value", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3, "trailing '1'"},
      {"symmetric upper triangle", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n1 3 1\n", 4,
       "above the diagonal"},
      {"skew diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 5\n", 4,
       "diagonal entry (2, 2)"},
      {"skew upper", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n1 2 5\n", 3, "above the diagonal"},
      {"float overflow", GEN + "1 1 1\n1 1 1e300\n", 3, "out of range for float"},
  };
  // "float overflow" is an error for float only: check it through parse_csr<float> alone.
  for (const auto& c : cases) {
    if (std::string(c.what) == "float overflow") {
      const std::string e = error_of([&] { (void)mm::parse_csr<float>(c.text, "bad.mtx"); });
      EXPECT_EQ(e.rfind("bad.mtx:3: ", 0), 0u) << e;
      EXPECT_NE(e.find(c.says), std::string::npos) << e;
      EXPECT_EQ(mm::parse_coo<double>(c.text, "ok").val[0], 1e300);
      continue;
    }
    expect_refused(c);
  }
}

TEST(MatrixMarketErrors, ArrayValues) {
  const std::string A = "%%MatrixMarket matrix array real general\n";
  const auto dense = [](const std::string& text) {
    return error_of([&] { (void)mm::parse_array<double>(text, "a.mtx"); });
  };
  EXPECT_EQ(dense(A + "2 2\n1\n2\n3\n").rfind("a.mtx:5: ", 0), 0u);  // truncated: ends at line 5
  EXPECT_NE(dense(A + "2 2\n1\n2\n3\n").find("ends after 3 of the 4 values"), std::string::npos);
  EXPECT_EQ(dense(A + "1 2\n1\n2\n3\n").rfind("a.mtx:5: more values", 0), 0u);
  EXPECT_EQ(dense(A + "2 1\n1 2\n").rfind("a.mtx:3: trailing '2'", 0), 0u);
  EXPECT_EQ(dense(A + "2 1\n1\nx\n").rfind("a.mtx:4: value 'x' is not a number", 0), 0u);
  EXPECT_NE(error_of([&] { (void)mm::parse_coo<double>(A + "1 1\n1\n", "a.mtx"); }).find("read_array"),
            std::string::npos);
}

// An error deep in a file cut into many chunks names its own line.
TEST(MatrixMarketErrors, LineNumbersDeepInAParallelParse) {
  std::string text = GEN + "% c\n1000 1000 20000\n";
  std::mt19937_64 rng(3);
  for (int k = 0; k < 20000; ++k)
    text += std::to_string(1 + rng() % 1000) + " " + std::to_string(1 + rng() % 1000) + " 0.5\n";
  EXPECT_EQ(mm::parse_coo<double>(text, "ok", many_chunks(4)).nnz(), 20000);
  // Break line 3 + 1 + 15000 (entry 15001): its value.
  std::size_t pos = 0;
  for (int l = 1; l < 15004; ++l) pos = text.find('\n', pos) + 1;
  const std::size_t eol = text.find('\n', pos);
  std::string bad = text;
  bad.replace(eol - 3, 3, "0.q");
  for (const auto& opt : {one_thread(), many_chunks(4), many_chunks(7)}) {
    const std::string e = error_of([&] { (void)mm::parse_csr<double>(bad, "deep.mtx", opt); });
    EXPECT_EQ(e.rfind("deep.mtx:15004: value '0.q' is not a number", 0), 0u) << e;
  }
  // A surplus entry near the end, after a chunk boundary.
  std::string more = text + "1 1 1\n";
  for (const auto& opt : {one_thread(), many_chunks(4)}) {
    const std::string e = error_of([&] { (void)mm::parse_csr<double>(more, "deep.mtx", opt); });
    EXPECT_EQ(e.rfind("deep.mtx:20004: more entries than the 20000", 0), 0u) << e;
  }
}

}  // namespace
