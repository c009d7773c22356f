// Enums and their spellings (tessera/core/types.hpp), Error and require().
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "tessera/core/error.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"
#include "tessera/reduce.hpp"

namespace {

using namespace tessera;

constexpr Dtype kDtypes[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u8, Dtype::u32};
constexpr Op kOps[] = {Op::sum, Op::min, Op::max};
constexpr Accum kAccums[] = {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat};
constexpr Backend kBackends[] = {Backend::cpu, Backend::cuda};
constexpr Kind kKinds[] = {Kind::reference, Kind::seed, Kind::tessera, Kind::vendor};

// Names are distinct, non-empty, not the "unknown" marker and plain
// identifiers (they appear in CLI arguments, JSON and test names).
template <class E, std::size_t N>
void check_names(const E (&values)[N]) {
  std::set<std::string_view> seen;
  for (E v : values) {
    const std::string_view s = to_string(v);
    EXPECT_FALSE(s.empty());
    EXPECT_NE(s, "?");
    for (char ch : s) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') << s;
    EXPECT_TRUE(seen.insert(s).second) << "duplicate name " << s;
  }
}

TEST(Types, NamesAreDistinct) {
  check_names(kDtypes);
  check_names(kOps);
  check_names(kAccums);
  check_names(kBackends);
  check_names(kKinds);
}

TEST(Types, DocumentedSpellings) {
  EXPECT_EQ(to_string(Dtype::f32), "float");
  EXPECT_EQ(to_string(Dtype::f64), "double");
  EXPECT_EQ(to_string(Dtype::i32), "int32");
  EXPECT_EQ(to_string(Dtype::i64), "int64");
  EXPECT_EQ(to_string(Dtype::u8), "uint8");
  EXPECT_EQ(to_string(Dtype::u32), "uint32");
  EXPECT_EQ(to_string(Op::sum), "sum");
  EXPECT_EQ(to_string(Op::min), "min");
  EXPECT_EQ(to_string(Op::max), "max");
  EXPECT_EQ(to_string(Accum::native), "native");
  EXPECT_EQ(to_string(Accum::f64), "double");
  EXPECT_EQ(to_string(Accum::kahan), "kahan");
  EXPECT_EQ(to_string(Accum::dfloat), "dfloat");
}

TEST(Types, RoundTrip) {
  for (Dtype t : kDtypes) {
    const auto back = parse_dtype(to_string(t));
    ASSERT_TRUE(back.has_value()) << to_string(t);
    EXPECT_EQ(*back, t);
  }
  for (Op op : kOps) {
    const auto back = parse_op(to_string(op));
    ASSERT_TRUE(back.has_value()) << to_string(op);
    EXPECT_EQ(*back, op);
  }
  for (Accum a : kAccums) {
    const auto back = parse_accum(to_string(a));
    ASSERT_TRUE(back.has_value()) << to_string(a);
    EXPECT_EQ(*back, a);
  }
}

TEST(Types, ParseRejectsJunk) {
  using namespace std::string_view_literals;
  const std::string_view junk_dtypes[] = {"", " ", "x", "floa", "floatt", " float", "float ", "float\n", "int16", "int8", "uint64", "uint16", "half",
        "f16", "sum", "kahan", "?", "float\0"sv};
  for (std::string_view junk : junk_dtypes) EXPECT_FALSE(parse_dtype(junk).has_value()) << "'" << junk << "'";
  for (std::string_view junk : {"", " ", "add", "summ", "Sum ", " sum", "mean", "prod", "float", "native", "?"})
    EXPECT_FALSE(parse_op(junk).has_value()) << "'" << junk << "'";
  for (std::string_view junk : {"", " ", "kahan2", "kahann", "f32", "float", "single", "sum", "double ", "?"})
    EXPECT_FALSE(parse_accum(junk).has_value()) << "'" << junk << "'";
  // The parsers of one enum do not accept another enum's names.
  for (Op op : kOps) EXPECT_FALSE(parse_dtype(to_string(op)).has_value());
  for (Dtype t : kDtypes) EXPECT_FALSE(parse_op(to_string(t)).has_value());
}

TEST(Types, SizeOf) {
  EXPECT_EQ(size_of(Dtype::f32), sizeof(float));
  EXPECT_EQ(size_of(Dtype::f64), sizeof(double));
  EXPECT_EQ(size_of(Dtype::i32), sizeof(std::int32_t));
  EXPECT_EQ(size_of(Dtype::i64), sizeof(std::int64_t));
  EXPECT_EQ(size_of(Dtype::u8), sizeof(std::uint8_t));
  EXPECT_EQ(size_of(Dtype::u32), sizeof(std::uint32_t));
}

TEST(Types, DtypeOfAndResultType) {
  static_assert(dtype_of<float>() == Dtype::f32);
  static_assert(dtype_of<double>() == Dtype::f64);
  static_assert(dtype_of<std::int32_t>() == Dtype::i32);
  static_assert(dtype_of<std::int64_t>() == Dtype::i64);
  static_assert(std::is_same_v<reduce_result_t<float>, float>);
  static_assert(std::is_same_v<reduce_result_t<double>, double>);
  static_assert(std::is_same_v<reduce_result_t<std::int32_t>, std::int64_t>);
  static_assert(std::is_same_v<reduce_result_t<std::int64_t>, std::int64_t>);
  // Runtime check too, so the test body is not empty.
  EXPECT_EQ(sizeof(reduce_result_t<std::int32_t>), 8u);
}

TEST(Types, ReduceOptionsDefaults) {
  const ReduceOptions o;
  EXPECT_EQ(o.accum, Accum::native);
  EXPECT_TRUE(o.variant.empty());
  EXPECT_EQ(o.stream, nullptr);
}

TEST(Error, IsARuntimeErrorCarryingTheMessage) {
  try {
    throw Error("d_in is a null pointer");
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "d_in is a null pointer");
  }
  EXPECT_NO_THROW(require(true, "never"));
  try {
    require(false, "n = 5 is too large");
    ADD_FAILURE() << "require(false) did not throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "n = 5 is too large");
  }
}

}  // namespace
