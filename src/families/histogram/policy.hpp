// Which variant tessera::histogram and tessera::histogram_even run when
// options.variant is empty, as data: the rules in order, the first whose
// input type and bin count match and whose variant supports the call (its
// shared memory fits) wins; each rule with the measurement that chose it.
// histogram_default_variant() (policy.cpp) reads them; docs/histogram.md
// says the same in prose. Measured by `tessera bench histogram`: 2^30 bytes
// into 256 bins (uniform, 80 % skewed, English-like text) and 2^28 floats
// into 64, 1024 and 4096 bins over [-0.5, 1.5), with the lab's rows in the
// ladder.
#pragma once

#include <string>
#include <string_view>

#include "families/histogram/contract.hpp"

namespace tessera::histogram_impl::policy {

struct Rule {
  Dtype dtype;                // the input type it applies to
  int max_bins;               // and bin counts up to this
  std::string_view variant;   // taken when it supports the call
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the copy ceiling, speed-up over CUB
  std::string_view source;    // the results file and the commit that chose it
};

inline constexpr std::string_view H100 = "H100 80GB HBM3";
inline constexpr std::string_view RESULTS = "docs/results/histogram-h100-2026-11-23b.json";

// CUDA builds.
inline constexpr Rule GPU_RULES[] = {
    {Dtype::u8, BYTE_BINS, "packed16_atomic", H100,
     "2^30 bytes: 96.0 % of copy on uniform bytes (1.35x CUB), 96.2 % skewed (1.05x), 95.8 % text (1.07x); "
     "packed8_atomic 81 %, packed8_rmw 65 %, hot_bin_copies 56-65 %",
     "docs/results/histogram-h100-2026-11-23b.json; commits db5d646 (byte split), 945c4b8 (results)"},
    // 128 words x 192 threads of counters keep two blocks per SM up to here.
    {Dtype::f32, 256, "packed16_atomic", H100,
     "2^28 floats, 64 bins: 94.0 % of copy, 0.97x CUB (packed8_atomic 96.3 %, 1.00x; hot_bin_copies 94.2 %)",
     RESULTS},
    // One shared copy of the counts fits up to 40960 bins.
    {Dtype::f32, MAX_BINS, "hot_bin_copies", H100,
     "2^28 floats: 1024 bins 95.1 % of copy (8.75x CUB), 4096 bins 93.1 % (7.64x), 1024 bins skewed 94.5 % (4.55x)",
     RESULTS},
    // Global atomics take any bin count: the seed's step-2 rung.
    {Dtype::f32, MAX_BINS, "global_interleaved", "-",
     "not measured past 4096 bins: the only rung for more bins than one shared-memory copy holds", "-"},
};

// Without a GPU (a CPU-only build, or a CUDA build on a machine with none):
// the parallel CPU rung for everything.
inline constexpr Rule CPU_RULES[] = {
    {Dtype::u8, BYTE_BINS, "cpu_openmp", "-", "the only parallel CPU rung", "-"},
    {Dtype::f32, MAX_BINS, "cpu_openmp", "-", "the only parallel CPU rung", "-"},
};

// The variant a default call takes for this shape, from the GPU's rules or
// the CPU's (policy.cpp; histogram_default_variant passes whether this
// machine has a GPU).
std::string pick(Dtype type, int bins, std::size_t n, bool gpu);

}  // namespace tessera::histogram_impl::policy
