// The lane-private packed counters (src/families/histogram/packed_counters.cuh)
// with 8-bit counters, as data: the lab's rows of the sweep whose 16-bit
// point, packed16_atomic, is the product's byte histogram
// (src/families/histogram/07_packed_counters.cu).
//
// 8-bit counters take a quarter of a word per bin per thread, so 256 threads
// x 3 blocks (24 warps per SM: 3 x (256 x 64 words + 256) x 4 B = 195 KB,
// <= 85 registers) fit where 16-bit counters hold 192 x 2; each counter holds
// 255, so a thread flushes its counters every 5 tiles (240 bytes). Measured
// on an H100 80GB HBM3 by `tessera bench histogram`, % of the copy ceiling
// (docs/results/histogram-h100-2026-11-23b.json, after eb70bf8 gave them
// packed16's two-mask byte split; 6d6cd31 added them): 2^30 bytes uniform /
// skewed / text, then 2^28 floats into 64 bins. packed16_atomic read 96.0 /
// 96.2 / 95.8 and 94.0 on the same run.
#pragma once

#include <string_view>

namespace tessera::histogram_impl::tuning {

struct PackedCounters {
  int bits;        // counter width
  bool atomic;     // fire-and-forget red.shared.add, or a plain load/add/store
  int block;       // threads a block
  int min_blocks;  // resident blocks per SM the registers must allow
  int unroll;      // 16-byte vectors a thread a tile
  std::string_view name;  // a literal: name.data() names the row in errors
  const char* kernel;     // the launch's name in errors
  std::string_view adds;
};

inline constexpr PackedCounters PACKED8_SWEEP[] = {
    // 81.0 / 81.1 / 81.3, floats 96.3 (1.00x CUB, the best on 64 float bins;
    // packed16_atomic 94.0): the flushes cost ~30 % more instructions on
    // bytes. Rejected for bytes; for floats the open question of
    // docs/histogram.md.
    {8, true, 256, 3, 5, "packed8_atomic", "histogram_packed8_atomic_kernel",
     "lane-private 8-bit counters packed 4 per word, 24 warps/SM, flushed every 240 bytes a thread"},
    // 65.2 / 65.3 / 65.6, floats 94.7: two shared accesses and a load latency
    // a byte cost more than the atomic unit saves. Rejected.
    {8, false, 256, 3, 5, "packed8_rmw", "histogram_packed8_rmw_kernel",
     "lane-private 8-bit counters updated by plain load/add/store (no atomic unit), 24 warps/SM"},
};

}  // namespace tessera::histogram_impl::tuning
