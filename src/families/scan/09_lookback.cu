// Step 9 — tessera's scan: single pass with decoupled look-back (Merrill &
// Garland 2016), the step that removes step 8's chain.
//
// What it changes over step 8:
//   - a tile publishes its *aggregate* as soon as it has reduced its data,
//     before it knows its prefix, so a successor never waits for the whole
//     chain: it combines the aggregates of its predecessors back to the
//     nearest published inclusive prefix (src/cuda/common/lookback.cuh);
//   - the look-back is one warp reading 4 predecessors per lane, 128 per round
//     trip to L2, with a ballot to find the nearest inclusive prefix: prefixes
//     propagate 128 tiles per round trip instead of 1;
//   - flag and value share one 8- or 16-byte word written and read with single
//     relaxed accesses: no __threadfence anywhere, the status array (8-16 bytes
//     per 16 KiB tile) stays in L2;
//   - the data stays in registers: 16-byte vector loads and stores, 4 vectors
//     per thread (16 floats), each warp owning a contiguous stretch of the
//     tile; per-row shuffle scans instead of a shared-memory transpose
//     (src/cuda/scan/lookback_tile.cuh). Any pointer alignment: tiles sit on
//     16-byte boundaries of the input, the first tile's head is skipped.
// The tile index still comes from an atomic counter (no deadlock whatever the
// block scheduling); the counter and the status words are cleared by one
// cudaMemsetAsync before the kernel.
//
// Bottleneck: DRAM, read n + write n: the data moves exactly once. Expected:
// >= 92% of the copy bandwidth for float sums at 2^28 and >= 1.1x
// cub::DeviceScan (target of issue 3); the wider float accumulators within a
// few percent (their flops hide under the memory time), 8-byte types the same
// bandwidth.
//
// Variants (policies in lookback_run.cuh, for the GPU run to choose from):
//   lookback               256 threads x 4 vectors, 4 slots per lane, <= 64 registers;
//   lookback_large_tiles   256 x 8 vectors (32 KiB float tiles), 2 blocks per SM;
//   lookback_small_blocks  128 x 4 vectors (8 KiB tiles), up to 8 blocks per SM;
//   lookback_window32/64, lookback_no_backoff, lookback_384x6, lookback_512x4:
//                          tuning rows after the first H100 bench, one change
//                          each over lookback_large_tiles (lookback_run.cuh);
//   lookback_persistent(_large): grid = resident blocks looping over tiles, the
//                          next tile's loads issued before the look-back
//                          (lookback_persistent.cuh); predicted 85-92% of copy.
// The two alternatives take 4-byte elements with the native accumulator
// (float, int32, uint32; sum, min, max) to bound compile time.
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/lookback_rows.cuh"
#include "families/scan/lookback_run.cuh"
#include "families/scan/cuda_rungs.hpp"

namespace tessera::scan_impl {

namespace {

template <class P, class R>
void run_lookback_for(const ScanCall& call) {
  using S = ScanOf<R>;
  run_lookback<P>("scan_lookback_kernel", S{}, static_cast<const typename S::in_t*>(call.in),
                  static_cast<typename S::out_t*>(call.out), call.spec.n, call.spec.exclusive, nullptr,
                  call.workspace, call.stream);
}

template <class P>
std::size_t workspace_for(const ScanSpec& spec) {
  return lookback_workspace<P>(spec);
}

template <class P>
void run_four_byte(const char* variant, const ScanCall& call) {
  if (!four_byte_native(call.spec)) throw_unsupported(variant, call.spec);
  dispatch_scan_or_throw(variant, call.spec, [&]<class R>() {
    if constexpr (sizeof(typename R::in_t) == 4 && std::is_same_v<typename R::in_t, typename R::acc_t>)
      run_lookback_for<P, R>(call);
  });
}

}  // namespace

void run_lookback(const ScanCall& call) {
  dispatch_scan_or_throw("lookback", call.spec, [&]<class R>() { run_lookback_for<LookbackPrimary, R>(call); });
}
std::size_t ws_lookback(const ScanSpec& spec) { return workspace_for<LookbackPrimary>(spec); }
bool supports_lookback(const ScanSpec& spec) { return scan_spec_supported(spec); }

void run_lookback_large_tiles(const ScanCall& call) { run_four_byte<LookbackLargeTiles>("lookback_large_tiles", call); }
std::size_t ws_lookback_large_tiles(const ScanSpec& spec) { return workspace_for<LookbackLargeTiles>(spec); }
bool supports_lookback_large_tiles(const ScanSpec& spec) { return four_byte_native(spec); }

void run_lookback_small_blocks(const ScanCall& call) {
  run_four_byte<LookbackSmallBlocks>("lookback_small_blocks", call);
}
std::size_t ws_lookback_small_blocks(const ScanSpec& spec) { return workspace_for<LookbackSmallBlocks>(spec); }
bool supports_lookback_small_blocks(const ScanSpec& spec) { return four_byte_native(spec); }

// The tuning rows (lookback_run.cuh says what each one tests).
#define TESSERA_LOOKBACK_ROW(name, Policy)                                                          \
  void run_##name(const ScanCall& call) { run_four_byte<Policy>(#name, call); }                    \
  std::size_t ws_##name(const ScanSpec& spec) { return workspace_for<Policy>(spec); }              \
  bool supports_##name(const ScanSpec& spec) { return four_byte_native(spec); }
TESSERA_LOOKBACK_ROW(lookback_window32, LookbackWindow32)
TESSERA_LOOKBACK_ROW(lookback_window64, LookbackWindow64)
TESSERA_LOOKBACK_ROW(lookback_no_backoff, LookbackNoBackoff)
TESSERA_LOOKBACK_ROW(lookback_384x6, Lookback384x6)
TESSERA_LOOKBACK_ROW(lookback_512x4, Lookback512x4)
#undef TESSERA_LOOKBACK_ROW

template <class P>
void run_persistent(const char* variant, const ScanCall& call) {
  if (!four_byte_native(call.spec)) throw_unsupported(variant, call.spec);
  dispatch_scan_or_throw(variant, call.spec, [&]<class R>() {
    if constexpr (sizeof(typename R::in_t) == 4 && std::is_same_v<typename R::in_t, typename R::acc_t>) {
      using S = ScanOf<R>;
      run_lookback_persistent<P>("scan_lookback_persistent_kernel", S{}, static_cast<const typename S::in_t*>(call.in),
                                 static_cast<typename S::out_t*>(call.out), call.spec.n, call.spec.exclusive,
                                 call.workspace, call.stream);
    }
  });
}
void run_lookback_persistent(const ScanCall& call) { run_persistent<LookbackPersistent>("lookback_persistent", call); }
std::size_t ws_lookback_persistent(const ScanSpec& spec) { return workspace_for<LookbackPersistent>(spec); }
bool supports_lookback_persistent(const ScanSpec& spec) { return four_byte_native(spec); }
void run_lookback_persistent_large(const ScanCall& call) {
  run_persistent<LookbackPersistentLarge>("lookback_persistent_large", call);
}
std::size_t ws_lookback_persistent_large(const ScanSpec& spec) { return workspace_for<LookbackPersistentLarge>(spec); }
bool supports_lookback_persistent_large(const ScanSpec& spec) { return four_byte_native(spec); }

}  // namespace tessera::scan_impl
