// The persistent vec16 transpose (07_vec16_persistent.cu) as a sweep: cache
// hint x resident blocks per SM, one lab row per line. Every line was
// measured on an H100 80GB HBM3 by `tessera bench transpose`
// (docs/results/transpose-h100-2026-11-23b.json and -c.json, commits d6b9dd1
// and 361c7f6), % of the copy ceiling on float 8192^2 in the two runs, and
// rejected: tile64_64x8, one tile per block, does better on every bench
// problem (level on float 5000 x 3001 in one run); on float 8192^2 it reads
// 92.9 / 93.4 %, cublasSgeam 93.2 / 93.0 %.
#pragma once

#include <string_view>

#include "tessera/blocks/vector16.cuh"

namespace tessera::transpose_impl::tuning {

struct PersistentTuning {
  tessera::gpu::CacheHint hint;  // of every global access
  int max_blocks_per_sm;         // the grid's cap (the occupancy API gives the other)
  std::string_view name;         // the lab row
  const char* kernel;            // the launch's name in errors
  const char* fallback;          // the padded-tile launch off the 16-byte path
  std::string_view adds;
};

using tessera::gpu::CacheHint;

inline constexpr PersistentTuning PERSISTENT_SWEEP[] = {
    // 89.7 / 89.9 % (0.96 / 0.97x cublasSgeam); double 8192^2 90.6 / 91.4 %.
    {CacheHint::normal, 4, "vec16_persistent", "transpose_vec16_persistent_kernel<normal, 4>",
     "transpose_tile_kernel<vec16_persistent fallback>",
     "vec16_swizzle with a balanced persistent grid, at most 4 blocks per SM: each block loads its next tile into "
     "registers before writing the current one"},
    // 88.9 / 87.6 % (0.95 / 0.94x): evict-first hints a little slower than
    // the default policy; double 90.6 / 91.0 %.
    {CacheHint::streaming, 4, "vec16_persistent_streaming", "transpose_vec16_persistent_kernel<streaming, 4>",
     "transpose_tile_kernel<vec16_persistent_streaming fallback>",
     "vec16_persistent with streaming cache hints (ld.global.cs / st.global.cs: evict-first, every byte touched once)"},
    // 87.8 / 87.8 % (0.94x): ~4 MiB requested at once is too little here;
    // double 90.7 / 91.1 %.
    {CacheHint::normal, 2, "vec16_persistent_2_per_sm", "transpose_vec16_persistent_kernel<normal, 2>",
     "transpose_tile_kernel<vec16_persistent_2_per_sm fallback>",
     "vec16_persistent with at most 2 blocks per SM (~4 MiB requested at once)"},
};

}  // namespace tessera::transpose_impl::tuning
