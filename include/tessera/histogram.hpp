// tessera::histogram — counts of a device array, on the device.
//
//   tessera::histogram(d_bytes, n, d_counts);                          // 256 bins of bytes
//   tessera::histogram_even(d_x, n, d_counts, nullptr, {.bins = 1024});  // 1024 equal bins over [0, 1)
//   std::uint32_t dropped;                                              // outside [lo, hi) or NaN
//   tessera::histogram_even(d_x, n, d_counts, &dropped, {.bins = 64, .lo = lo, .hi = hi});
//   tessera::histogram(d_bytes, n, d_counts, {.variant = "copy_per_warp", .stream = s});  // any rung by name
//
// Bytes: d_counts[v] = the number of i with d_bytes[i] == v, 256 counters.
// Floats: options.bins equal-width bins over [options.lo, options.hi); x goes
// to bin
//   min(bins - 1, int((x - lo) * (float(bins) / (hi - lo))))   (float arithmetic)
// when lo <= x < hi; any other x (NaN included) is dropped and counted in
// *out_of_range. This is cub::DeviceHistogram::HistogramEven's rule, except
// that a value just below hi whose scaled offset rounds up to `bins` is
// counted in the top bin.
//
// Counts are uint32 and overwritten (not accumulated); n must be below 2^32,
// so no count can wrap (split larger inputs and add the counts). Every
// element is counted exactly once: results are exact and identical on every
// variant and every run.
//
// The calls are asynchronous on options.stream: d_counts (device memory, bins
// counters) is written in stream order. out_of_range, histogram_even's
// optional output, may be nullptr (not reported), a device pointer (written
// in stream order) or a host pointer (the call then waits for the stream and
// stores the count there). The cpu_ variants, reachable by name, take host
// pointers and run at once.
//
// Scratch: a call allocates what it needs stream-ordered (cudaMallocAsync:
// CUB's temporary storage, and a word for the out-of-range count when
// out_of_range is not a device pointer), unless options.workspace holds at
// least histogram_workspace_bytes(...) / histogram_even_workspace_bytes(...)
// bytes of device memory (256-byte aligned, as cudaMalloc returns): then it
// allocates nothing.
//
// Errors (null pointer with n > 0, a null d_counts, 0 or too many bins, an
// empty, inverted, infinite or NaN range, n >= 2^32, a misaligned float
// pointer, host memory where device memory is needed, counts overlapping the
// input, an unknown variant or one that cannot take the problem, a workspace
// too small, a failed allocation) throw tessera::Error naming the argument
// and its value, before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

// Bytes: 256 bins, nothing of the family's own to set.
struct HistogramOptions {
  std::string variant = {};  // empty: the variant the policy picks for bytes
  stream_t stream = nullptr;
  Workspace workspace = {};
};

// Floats: `bins` equal-width bins over [lo, hi).
struct HistogramEvenOptions {
  int bins = 256;            // 1 .. HISTOGRAM_MAX_BINS
  float lo = 0.0f;           // lowest value counted
  float hi = 1.0f;           // first value past the top bin
  std::string variant = {};  // empty: the variant the policy picks for this bin count
  stream_t stream = nullptr;
  Workspace workspace = {};
};

inline constexpr int HISTOGRAM_BYTE_BINS = 256;
inline constexpr int HISTOGRAM_MAX_BINS = 1 << 24;
inline constexpr std::size_t HISTOGRAM_MAX_N = 0xFFFFFFFFull;  // n <= this: uint32 counts cannot wrap

// 256-bin histogram of bytes into d_counts[0, 256).
void histogram(const std::uint8_t* d_bytes, std::size_t n, std::uint32_t* d_counts,
               const HistogramOptions& options = {});

// options.bins equal-width bins over [options.lo, options.hi) into
// d_counts[0, bins); the number of dropped values (outside [lo, hi), or NaN)
// into *out_of_range if not null.
void histogram_even(const float* d_x, std::size_t n, std::uint32_t* d_counts, std::uint32_t* out_of_range = nullptr,
                    const HistogramEvenOptions& options = {});

// Workspace bytes that make the call with these arguments allocate nothing
// (the variant options.variant names, or the policy's).
std::size_t histogram_workspace_bytes(std::size_t n, const HistogramOptions& options = {});
std::size_t histogram_even_workspace_bytes(std::size_t n, const HistogramEvenOptions& options = {});

// The name of the variant the public API picks (Dtype::u8: bins = 256).
std::string histogram_default_variant(Dtype type, int bins, std::size_t n);

}  // namespace tessera
