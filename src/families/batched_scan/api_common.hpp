// Argument validation shared by the CUDA and CPU-only builds of the public
// batched_scan API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "families/batched_scan/contract.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/options.hpp"

namespace tessera::batched_scan_impl {

// Elements spanned by `rows` rows of `len` samples at `pitch`: the last row
// ends at (rows - 1) * pitch + len. Throws when that does not fit in bytes.
inline std::size_t span_elements(std::size_t rows, std::size_t pitch, std::size_t len, const char* which) {
  constexpr std::size_t max_elems = std::numeric_limits<std::size_t>::max() / sizeof(float);
  require(rows == 0 || len == 0 || (rows - 1 <= (max_elems - len) / (pitch == 0 ? 1 : pitch)),
          fmt::format("tessera::batched_scan: {} rows of {} samples at {}_pitch {} overflow the address space", rows,
                      len, which, pitch));
  return rows == 0 || len == 0 ? 0 : (rows - 1) * pitch + len;
}

// Whether the element sets of the input and output rows intersect. Row r of
// `in` is the byte range [in + r*P_in, in + r*P_in + 4*len), likewise `out`.
// With equal pitches P the sets meet iff |D - m*P| < 4*len for some
// m in (-rows, rows), D = out - in in bytes (exact, checked at the two m
// nearest D/P); with different pitches the address hulls are compared
// (conservative: interleaved rows at different pitches are rejected too).
inline bool rows_overlap(const float* in, std::size_t in_pitch, const float* out, std::size_t out_pitch,
                         std::size_t rows, std::size_t len) {
  if (rows == 0 || len == 0) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(in);
  const auto b = reinterpret_cast<std::uintptr_t>(out);
  const std::size_t row_bytes = len * sizeof(float);
  if (in_pitch != out_pitch) {
    const std::size_t in_end = a + ((rows - 1) * in_pitch) * sizeof(float) + row_bytes;
    const std::size_t out_end = b + ((rows - 1) * out_pitch) * sizeof(float) + row_bytes;
    return a < out_end && b < in_end;
  }
  // Equal pitches: by symmetry look at D = |b - a| >= 0 and m >= 0.
  const std::size_t d = a > b ? a - b : b - a;
  const std::size_t p = in_pitch * sizeof(float);
  if (p == 0) return true;  // pitch 0 (len 0 excluded above): every row is the same bytes
  const std::size_t m = d / p;  // D - m*P in [0, P); D - (m+1)*P in [-P, 0)
  if (m <= rows - 1 && d - m * p < row_bytes) return true;
  if (m + 1 <= rows - 1 && (m + 1) * p - d < row_bytes) return true;
  return false;
}

// The spec of a call with rows x len samples: pitches resolved (0: len) and
// every argument but the pointers checked. Throws Error naming the argument.
inline ScanSpec checked_spec(std::size_t rows, std::size_t len, const BatchedScanOptions& o) {
  require(o.direction == ScanDirection::forward || o.direction == ScanDirection::backward ||
              o.direction == ScanDirection::forward_backward,
          fmt::format("tessera::batched_scan: unknown direction {}", static_cast<int>(o.direction)));
  require(o.accum == Accum::native || o.accum == Accum::f64 || o.accum == Accum::kahan || o.accum == Accum::dfloat,
          fmt::format("tessera::batched_scan: unsupported accumulator {}", static_cast<int>(o.accum)));
  const std::size_t in_pitch = o.in_pitch == 0 ? len : o.in_pitch;
  const std::size_t out_pitch = o.out_pitch == 0 ? len : o.out_pitch;
  require(in_pitch >= len,
          fmt::format("tessera::batched_scan: in_pitch = {} is smaller than len = {}", in_pitch, len));
  require(out_pitch >= len,
          fmt::format("tessera::batched_scan: out_pitch = {} is smaller than len = {}", out_pitch, len));
  (void)span_elements(rows, in_pitch, len, "in");
  (void)span_elements(rows, out_pitch, len, "out");
  return ScanSpec{o.direction, o.accum, o.exclusive, rows, len, in_pitch, out_pitch, false};
}

// The variant that runs `spec`: options.variant, or the default policy's
// pick (policy.hpp). Throws Error if there is none of that name or it does
// not support the spec.
inline const ScanVariant& variant_for(const ScanSpec& spec, const BatchedScanOptions& o) {
  const std::string chosen =
      o.variant.empty() ? batched_scan_default_variant(spec.rows, spec.len, spec.accum, spec.direction) : o.variant;
  const ScanVariant& v = variants_ladder().at(chosen, "tessera::batched_scan");
  require(v.supports(spec),
          fmt::format("tessera::batched_scan: variant '{}' does not support {}", chosen, describe(spec)));
  return v;
}

// Validates every argument and resolves the variant (by name, or the default
// for the shape); fills `spec`. Throws Error naming the argument otherwise.
inline const ScanVariant& resolve(const float* in, std::size_t rows, std::size_t len, const float* out,
                                  const BatchedScanOptions& o, ScanSpec& spec) {
  spec = checked_spec(rows, len, o);
  const bool work = rows > 0 && len > 0;
  if (work) {
    require(in != nullptr, fmt::format("tessera::batched_scan: in is a null pointer but rows = {}, len = {}", rows, len));
    require(out != nullptr,
            fmt::format("tessera::batched_scan: out is a null pointer but rows = {}, len = {}", rows, len));
  }
  spec.in_place = work && in == out && spec.in_pitch == spec.out_pitch;
  if (work && !spec.in_place)
    require(!rows_overlap(in, spec.in_pitch, out, spec.out_pitch, rows, len),
            fmt::format("tessera::batched_scan: the rows of out (pitch {}) partially overlap the rows of in (pitch {}); "
                        "only in == out with equal pitches (in place) may overlap",
                        spec.out_pitch, spec.in_pitch));
  return variant_for(spec, o);
}

// Host scratch for the cpu_* variants: the caller's workspace when given
// (it must hold `bytes`), else `owned`.
inline void* host_scratch(std::size_t bytes, const Workspace& given, std::vector<unsigned char>& owned) {
  if (given.ptr != nullptr) {
    require(given.bytes >= bytes, fmt::format("tessera::batched_scan: the workspace holds {} bytes but this call "
                                              "needs {}",
                                              given.bytes, bytes));
    return given.ptr;
  }
  owned.resize(bytes);
  return owned.empty() ? nullptr : owned.data();
}

}  // namespace tessera::batched_scan_impl
