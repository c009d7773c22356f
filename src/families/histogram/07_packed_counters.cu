// Step 7 — tessera's byte histogram: lane-private packed counters
// (packed_counters.cuh: how they work and why they have neither bank
// conflicts nor contention).
//
// The product runs one configuration, packed16_atomic: 16-bit counters
// packed 2 per word, fire-and-forget shared atomics (red.shared.add), 192
// threads x 2 blocks per SM (12 warps; 2 x (192 x 128 words + 256) x 4 B =
// 194 KB of the 228 KB for 256 bins), 8 vectors a tile. Measured on an H100
// (2^30 bytes, docs/results/histogram-h100-2026-11-23b.json): 96.0 % of copy
// on uniform bytes (1.35x CUB), 96.2 % skewed (1.05x), 95.8 % text (1.07x),
// once each byte cost ~5.5 instead of ~6.8 instructions (db5d646: the first
// version was issue-bound at 88.6 %). The 8-bit configurations (24 warps per
// SM, flushes) measured 65-81 % on bytes and are the lab's rows
// (lab/histogram/tuning_packed_counters.cuh).
#include "families/histogram/cuda_rungs.hpp"
#include "families/histogram/packed_counters.cuh"

namespace tessera::histogram_impl {

namespace {
using Packed16Atomic = PackedPolicy<16, true, 192, 2, 8>;
static_assert(Packed16Atomic::flush_tiles<std::uint8_t>() >= 1 && Packed16Atomic::flush_tiles<float>() >= 1);
}  // namespace

void run_packed16_atomic(const HistogramCall& call) {
  run_packed<Packed16Atomic>("packed16_atomic", "histogram_packed16_atomic_kernel", call);
}
bool supports_packed16_atomic(const HistogramSpec& spec) { return packed_supports<Packed16Atomic>(spec); }

}  // namespace tessera::histogram_impl
