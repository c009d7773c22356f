// Step 9 refinement — early-publishing look-back (kernel and the bound
// arithmetic: src/cuda/scan/lookback_early.cuh). Two policies, both 256
// threads, 2 blocks per SM, 1 status slot per lane (sparse re-poll),
// streaming output stores:
//   lookback_early_publish      256 x 12 vectors = 48 floats per thread, 48 KiB
//                               tiles (~100 registers, no spills, 2 blocks per
//                               SM): the look-back's fixed ~4-5 us per tile takes
//                               about half of the 9.4 us a block has per tile at
//                               92% of copy. Predicted 84-92% of copy,
//                               1.04-1.14x cub::DeviceScan.
//   lookback_early_publish_32k  256 x 8 vectors (32 KiB tiles, lookback_window32's
//                               shape): the kernel changes alone. Predicted 78-82%.
// 4-byte elements with the native accumulator only (float, int32, uint32;
// sum, min, max), like the other tuned look-back policies.
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/lookback_early.cuh"
#include "families/scan/lookback_rows.cuh"
#include "families/scan/cuda_rungs.hpp"

namespace tessera::scan_impl {

namespace {

// Provenance: shapes from the arithmetic in lookback_early.cuh and the H100
// rows of 2026-11-23 (32 KiB tiles beat 16 KiB by 13 points; 256-thread
// blocks beat 384 and 512).
using LookbackEarly48k = gpu::LookbackPolicy<256, 12, 1, 2, gpu::CacheHint::streaming>;
using LookbackEarly32k = gpu::LookbackPolicy<256, 8, 1, 2, gpu::CacheHint::streaming>;
static_assert(LookbackEarly48k::THREADS * LookbackEarly48k::VECTORS * 16 == 48 * 1024, "48 KiB tiles of 4-byte data");
static_assert(LookbackEarly32k::THREADS * LookbackEarly32k::VECTORS * 16 == 32 * 1024, "32 KiB tiles of 4-byte data");

template <class P>
void run_early(const char* variant, const ScanCall& call) {
  if (!four_byte_native(call.spec)) throw_unsupported(variant, call.spec);
  dispatch_scan_or_throw(variant, call.spec, [&]<class R>() {
    if constexpr (sizeof(typename R::in_t) == 4 && std::is_same_v<typename R::in_t, typename R::acc_t>) {
      using S = ScanOf<R>;
      run_lookback_early<P>("scan_lookback_early_kernel", S{}, static_cast<const typename S::in_t*>(call.in),
                            static_cast<typename S::out_t*>(call.out), call.spec.n, call.spec.exclusive,
                            call.workspace, call.stream);
    }
  });
}

}  // namespace

void run_lookback_early_publish(const ScanCall& call) { run_early<LookbackEarly48k>("lookback_early_publish", call); }
std::size_t ws_lookback_early_publish(const ScanSpec& spec) { return lookback_workspace<LookbackEarly48k>(spec); }
bool supports_lookback_early_publish(const ScanSpec& spec) { return four_byte_native(spec); }

void run_lookback_early_publish_32k(const ScanCall& call) {
  run_early<LookbackEarly32k>("lookback_early_publish_32k", call);
}
std::size_t ws_lookback_early_publish_32k(const ScanSpec& spec) { return lookback_workspace<LookbackEarly32k>(spec); }
bool supports_lookback_early_publish_32k(const ScanSpec& spec) { return four_byte_native(spec); }

}  // namespace tessera::scan_impl
