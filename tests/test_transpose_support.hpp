// Helpers shared by the transpose tests: the shapes every rung is checked
// at, host matrices with marked padding, and an independent element-by-
// element check (written here, not taken from the harness) of a transpose or
// of the copy bound.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "harness/generate.hpp"
#include "harness/matrix.hpp"
#include "families/transpose/contract.hpp"
#include "tessera/core/types.hpp"

namespace tessera_test {

struct TShape {
  std::size_t rows, cols, pad_in = 0, pad_out = 0;
};

// Square, rectangular and non-tile-multiple shapes: empty, one row, one
// column, warp and tile boundaries +/- 1 (16, 32, 64), primes, 16-byte
// aligned shapes that are not tile multiples, more than 16 tile rows (the
// grouped order's last, shorter band), pitched rows on either side.
inline std::vector<TShape> transpose_shapes() {
  return {{0, 0},        {0, 5},       {5, 0},        {1, 1},         {1, 777},      {777, 1},      {2, 3},
          {15, 17},      {16, 16},     {17, 15},      {31, 33},       {32, 32},      {33, 31},      {63, 65},
          {64, 64},      {65, 63},     {97, 101},     {100, 200},     {128, 256},    {192, 320},    {257, 255},
          {547, 300},    {1100, 200},  {1031, 1033},  {3, 5000},      {5000, 3},     {33, 65, 3, 5},
          {96, 160, 4, 28},             {100, 200, 1, 2},             {128, 64, 64, 64}};
}

inline std::string shape_name(const TShape& s) {
  std::ostringstream os;
  os << s.rows << "x" << s.cols;
  if (s.pad_in || s.pad_out) os << "_ld" << s.cols + s.pad_in << "_" << s.rows + s.pad_out;
  return os.str();
}

inline tessera::transpose_impl::TransposeSpec spec_of(tessera::Dtype t, const TShape& s) {
  return {t, s.rows, s.cols, s.cols + s.pad_in, s.rows + s.pad_out};
}

// Bytes of an input (rows x ld_in) or output (cols x ld_out) buffer.
inline std::size_t in_bytes(const tessera::transpose_impl::TransposeSpec& s) {
  return s.rows * s.ld_in * tessera::size_of(s.dtype);
}
inline std::size_t out_bytes(const tessera::transpose_impl::TransposeSpec& s) {
  return s.cols * s.ld_out * tessera::size_of(s.dtype);
}

// A seeded input: random elements, padding marked (harness::fill_matrix).
inline std::vector<unsigned char> make_input(const tessera::transpose_impl::TransposeSpec& s, std::uint64_t seed) {
  std::vector<unsigned char> in(in_bytes(s) + 16, 0x77);
  tessera::harness::fill_matrix(in.data(), s.dtype, s.in_layout(), seed, tessera::harness::Distribution::uniform);
  return in;
}

// Every element of `out` (a buffer of out_bytes(s), poisoned with `poison`
// before the run) is right: out(j, i) == in(i, j) bit for bit and the pitch
// padding still poison — or, for the copy bound, the rows x cols input
// written densely and nothing after it.
inline ::testing::AssertionResult check_output(const tessera::transpose_impl::TransposeSpec& s, const unsigned char* in,
                                               const unsigned char* out, unsigned char poison, bool copy) {
  const std::size_t e = tessera::size_of(s.dtype);
  std::size_t wrong = 0, first_i = 0, first_j = 0;
  auto mismatch = [&](std::size_t i, std::size_t j) {
    if (wrong++ == 0) first_i = i, first_j = j;
  };
  for (std::size_t i = 0; i < s.rows; ++i)
    for (std::size_t j = 0; j < s.cols; ++j) {
      const std::size_t o = copy ? i * s.cols + j : j * s.ld_out + i;
      if (std::memcmp(out + o * e, in + (i * s.ld_in + j) * e, e) != 0) mismatch(i, j);
    }
  if (wrong != 0)
    return ::testing::AssertionFailure() << wrong << " wrong elements; first: input (" << first_i << ", " << first_j
                                         << ")";
  std::size_t touched = 0;
  if (copy) {
    for (std::size_t b = s.rows * s.cols * e; b < out_bytes(s); ++b) touched += out[b] != poison;
  } else {
    for (std::size_t j = 0; j < s.cols; ++j)
      for (std::size_t b = (j * s.ld_out + s.rows) * e; b < (j + 1) * s.ld_out * e; ++b) touched += out[b] != poison;
  }
  if (touched != 0) return ::testing::AssertionFailure() << touched << " bytes written outside the matrix";
  return ::testing::AssertionSuccess();
}

// A poison byte no input element consists of.
inline unsigned char poison_for(const tessera::transpose_impl::TransposeSpec& s, const unsigned char* in) {
  const std::size_t e = tessera::size_of(s.dtype);
  for (unsigned char p : {0xFF, 0xA5, 0x5A, 0xC3}) {
    bool seen = false;
    for (std::size_t i = 0; i < s.rows && !seen; ++i)
      for (std::size_t j = 0; j < s.cols && !seen; ++j) {
        std::size_t same = 0;
        for (std::size_t b = 0; b < e; ++b) same += in[(i * s.ld_in + j) * e + b] == p;
        seen = same == e;
      }
    if (!seen) return p;
  }
  return 0xFF;
}

}  // namespace tessera_test
