// Division of 32-bit indices by a run-time constant with one 64-bit multiply
// and a shift (Granlund & Montgomery's round-up method, as in CUTLASS's
// FastDivmod): the (row, column) of a flat index in the kernels that walk
// rows of a run-time length.
//
//   q = (n * m) >> p,  p = 31 + ceil(log2 d),  m = ceil(2^p / d)
//
// exact for every n < 2^31 and 1 <= d < 2^31: n * m / 2^p = n / d + n e / 2^p
// with 0 <= e < 1, and n e / 2^p < 2^31 / 2^p = 2^-ceil(log2 d) <= 1/d, while
// the fractional part of n / d is at most (d - 1) / d, so the floor is
// unchanged. m < 2^32 and n * m < 2^63 fit the 64-bit product.
#pragma once

#include <cstdint>

#include "common/hd.hpp"

namespace tessera {

struct FastDiv {
  std::uint32_t d = 1;
  std::uint64_t m = std::uint64_t(1) << 31;
  std::uint32_t p = 31;

  FastDiv() = default;
  // d in [1, 2^31).
  explicit FastDiv(std::uint32_t divisor) : d(divisor) {
    std::uint32_t l = 0;
    while ((std::uint64_t(1) << l) < divisor) ++l;
    p = 31 + l;
    m = ((std::uint64_t(1) << p) + divisor - 1) / divisor;
  }
  // n < 2^31.
  TESSERA_HD std::uint32_t div(std::uint32_t n) const { return static_cast<std::uint32_t>((n * m) >> p); }
};

}  // namespace tessera
