// IBM System/360 single-precision floats (SEG-Y sample format 1) <-> IEEE-754
// binary32, on the 32-bit patterns (the caller handles byte order).
//
// IBM float: sign bit, 7-bit excess-64 exponent of 16, 24-bit fraction:
// value = (-1)^s * 0.F * 16^(E-64). Its range (5.4e-79 .. 7.2e75) is wider
// than IEEE float's and its precision narrower (21 to 24 significant bits,
// depending on the leading hex digit), so:
//
//   ibm_to_float  exact for every IBM value inside float's range, normalised
//                 or not; values below the smallest float round to nearest
//                 (ties to even) into the subnormals or to a signed zero;
//                 values above FLT_MAX become +-infinity. Never NaN.
//   float_to_ibm  exact when the float fits in the IBM fraction (always for
//                 |x| with at most 21 significant bits, e.g. every value
//                 that came from ibm_to_float), otherwise rounded to nearest,
//                 ties to even; subnormals are exact (IBM reaches 1e-78);
//                 signed zeros keep their sign. IBM has no infinity or NaN:
//                 +-inf and NaN become the largest IBM magnitude
//                 (0x7FFFFFFF / 0xFFFFFFFF), which ibm_to_float reads back as
//                 +-inf; is_finite_for_ibm() lets callers count them.
//
// segyio's converters (1.8) truncate instead of rounding, map IBM overflow to
// NaN and flush IBM values below 2^-127 to zero; these do neither, and run on
// integer arithmetic only (no dependence on the floating-point environment).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace tessera::ibm {

float ibm_to_float(std::uint32_t ibm) noexcept;
std::uint32_t float_to_ibm(float x) noexcept;

inline bool is_finite_for_ibm(float x) noexcept { return std::isfinite(x); }

// Bulk conversions of big-endian 4-byte words (the SEG-Y byte order), in
// place: `words` holds n samples; decode turns IBM words into native floats,
// encode turns floats into IBM words and returns how many were not finite.
void decode_be(void* words, std::size_t n) noexcept;
std::size_t encode_be(void* words, std::size_t n) noexcept;

}  // namespace tessera::ibm
