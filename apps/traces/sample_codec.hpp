// SEG-Y samples <-> the float batches the scans run on, for every format
// tessera reads (trace_io.hpp's format_supported), in either byte order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace tessera::traces {

// Turns n samples of `format` (file bytes, `little_endian` or big-endian)
// into floats, rounded to nearest where float is narrower (int32, int64,
// uint32, uint64, double; doubles beyond float's range become +-inf).
void decode_samples(int format, bool little_endian, const unsigned char* in, std::size_t n, float* out) noexcept;

struct EncodeResult {
  std::size_t nonfinite = 0;  // IBM: inf/NaN written as the largest IBM magnitude
  // Integer formats: the first sample that does not fit the type (out of
  // range or not finite; nothing is written from it on); NONE when all fit.
  static constexpr std::size_t NONE = std::numeric_limits<std::size_t>::max();
  std::size_t first_unfit = NONE;
};

// Turns n floats into samples of `format` (integers rounded to nearest, ties
// to even).
EncodeResult encode_samples(int format, bool little_endian, const float* in, std::size_t n,
                            unsigned char* out) noexcept;

}  // namespace tessera::traces
