// Step 9 refinement — warp-specialised persistent look-back scan with bulk
// (TMA) tile loads (kernel, roles and budget: src/cuda/scan/lookback_bulk.cuh).
// One block per SM: 256 consumer threads x 12 vectors (48 KiB tiles, the
// shape of lookback_early_publish) plus a producer, an aggregator and a
// look-back warp; 4 tile buffers (192 KiB of shared memory).
//   lookback_bulk       the look-back warp polls 32 slots, re-polling only the
//                       missing ones (lookback_sparse.cuh), as lookback_early_publish.
//                       Predicted 88-93% of copy, 1.08-1.14x cub::DeviceScan.
//   lookback_bulk_w128  4 slots per lane (128 predecessors per round trip):
//                       aggregates are out early here, so a poll rarely finds
//                       a slot missing and the wide window's extra traffic
//                       buys fewer round trips. Predicted within 2 points of
//                       lookback_bulk.
// Below sm_90 (no bulk copies), or where a block cannot have 196 KiB of
// shared memory, both run lookback_early_publish's kernel.
// 4-byte elements with the native accumulator only (float, int32, uint32;
// sum, min, max).
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/lookback_bulk.cuh"
#include "families/scan/lookback_early.cuh"
#include "families/scan/lookback_rows.cuh"
#include "families/scan/cuda_rungs.hpp"

namespace tessera::scan_impl {

namespace {

using BulkConsumers = gpu::LookbackPolicy<256, 12, 1, 1, gpu::CacheHint::streaming>;
constexpr int BULK_BUFFERS = 4;
static_assert(gpu::bulk_scan_smem_bytes<BulkConsumers, BULK_BUFFERS>() == 192 * 1024, "4 x 48 KiB tiles");
// lookback_early_publish's policy: the fallback below sm_90, same tiles.
using EarlyFallback = gpu::LookbackPolicy<256, 12, 1, 2, gpu::CacheHint::streaming>;

// The 4 buffers plus ~1.3 KiB of static shared memory.
constexpr std::size_t BULK_SHARED_BYTES = gpu::bulk_scan_smem_bytes<BulkConsumers, BULK_BUFFERS>() + 4 * 1024;

template <int PER_LANE>
void run_bulk(const char* variant, const ScanCall& call) {
  if (!four_byte_native(call.spec)) throw_unsupported(variant, call.spec);
  dispatch_scan_or_throw(variant, call.spec, [&]<class R>() {
    if constexpr (sizeof(typename R::in_t) == 4 && std::is_same_v<typename R::in_t, typename R::acc_t>) {
      using S = ScanOf<R>;
      const auto* in = static_cast<const typename S::in_t*>(call.in);
      auto* out = static_cast<typename S::out_t*>(call.out);
      if (gpu::bulk_kernel_fits(BULK_SHARED_BYTES))
        run_lookback_bulk<BulkConsumers, BULK_BUFFERS, PER_LANE>("scan_lookback_bulk_kernel", S{}, in, out,
                                                                 call.spec.n, call.spec.exclusive, call.workspace,
                                                                 call.stream);
      else
        run_lookback_early<EarlyFallback>("scan_lookback_early_kernel", S{}, in, out, call.spec.n,
                                          call.spec.exclusive, call.workspace, call.stream);
    }
  });
}

// Both kernels' workspace: the counter and one status slot per tile (same
// tiles).
std::size_t bulk_workspace(const ScanSpec& spec) {
  static_assert(BulkConsumers::THREADS * BulkConsumers::VECTORS == EarlyFallback::THREADS * EarlyFallback::VECTORS);
  return lookback_workspace<BulkConsumers>(spec);
}

}  // namespace

void run_lookback_bulk(const ScanCall& call) { run_bulk<1>("lookback_bulk", call); }
std::size_t ws_lookback_bulk(const ScanSpec& spec) { return bulk_workspace(spec); }
bool supports_lookback_bulk(const ScanSpec& spec) { return four_byte_native(spec); }

void run_lookback_bulk_w128(const ScanCall& call) { run_bulk<4>("lookback_bulk_w128", call); }
std::size_t ws_lookback_bulk_w128(const ScanSpec& spec) { return bulk_workspace(spec); }
bool supports_lookback_bulk_w128(const ScanSpec& spec) { return four_byte_native(spec); }

}  // namespace tessera::scan_impl
