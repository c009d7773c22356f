// The histogram pattern's internal contract: what one call carries and what
// one registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// HistogramVariant; the public API and the harness only go through this table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::histogram_impl {

// What is being counted (everything but the data).
//   Dtype::u8   every byte value is its own bin: bins == 256, lo/hi unused;
//   Dtype::f32  `bins` equal-width bins over [lo, hi) (bins.hpp gives the
//               exact rule); values outside, and NaN, are dropped
//               and counted as out of range.
struct HistogramSpec {
  Dtype dtype = Dtype::u8;
  std::size_t n = 0;
  int bins = 256;
  float lo = 0.0f, hi = 0.0f;
};

// One call. `in`, `counts` and `out_of_range` are device pointers for CUDA
// variants and host pointers for CPU variants. The run overwrites
// counts[0, bins) (it does not accumulate into them) and writes one uint32 to
// *out_of_range (0 for bytes). `workspace` holds workspace_bytes(spec) bytes
// of the same memory kind, contents undefined on entry. A CUDA run only
// enqueues work on `stream`: no allocation, no host synchronisation (so it
// can be captured in a graph).
struct HistogramCall {
  HistogramSpec spec;
  const void* in;
  std::uint32_t* counts;
  std::uint32_t* out_of_range;
  void* workspace;
  stream_t stream;
};

struct HistogramVariant {
  VariantInfo info;
  bool (*supports)(const HistogramSpec&);
  std::size_t (*workspace_bytes)(const HistogramSpec&);
  void (*run)(const HistogramCall&);
};

// Limits of the pattern (the public API checks them; docs/histogram.md).
// Counts are uint32: with n < 2^32 no count can wrap.
inline constexpr std::size_t MAX_N = 0xFFFFFFFFull;
inline constexpr int BYTE_BINS = 256;
inline constexpr int MAX_BINS = 1 << 24;  // float bin indices stay exact integers in float

// The ladder: ladder.cpp's table, in ladder order (step, then table order);
// the lab build adds its tuning rows to it. Lookup by name: find(), or at()
// for the "no variant named" error.
ladder::Ladder<HistogramVariant>& variants_ladder();

// Why (bins, lo, hi) cannot define a float histogram; "" when it can: bins
// in 1..MAX_BINS, lo and hi finite, lo < hi, hi - lo and bins / (hi - lo)
// finite floats. Checked by the public API before anything runs.
std::string even_bins_problem(int bins, float lo, float hi);

// "uint8 256 bins n=1000" / "float 64 bins [0, 1) n=1000"
std::string describe(const HistogramSpec& spec);

}  // namespace tessera::histogram_impl
