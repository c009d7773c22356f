// Step 9's tuned kernels as ladder rows. Each kernel template has a row
// template over its policy, giving run(variant, call) and workspace(spec) for
// 4-byte elements with the native accumulator (float, int32, uint32; sum, min,
// max: the only specs these kernels are compiled for, to bound compile time).
// The product's `lookback_bulk` (09_lookback_bulk.cu) and the lab's tuning
// table (lab/scan/tuning_lookback.cuh) instantiate them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "families/scan/hierarchy.cuh"
#include "families/scan/lookback_bulk.cuh"
#include "families/scan/lookback_early.cuh"
#include "families/scan/lookback_run.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/blocks/mbarrier.cuh"

namespace tessera::scan_impl {

// The specs the tuned kernels take.
inline bool four_byte_native(const ScanSpec& spec) {
  return (spec.dtype == Dtype::f32 || spec.dtype == Dtype::i32 || spec.dtype == Dtype::u32) &&
         spec.accum == Accum::native && scan_spec_supported(spec);
}

// launch(S{}, in, out) for the spec's scan functor S = ScanOf<R>, instantiated
// for the 4-byte native reducers only; Error for any other spec.
template <class Launch>
void run_four_byte_native(const char* variant, const ScanCall& call, Launch&& launch) {
  if (!four_byte_native(call.spec)) throw_unsupported(variant, call.spec);
  dispatch_scan_or_throw(variant, call.spec, [&]<class R>() {
    if constexpr (sizeof(typename R::in_t) == 4 && std::is_same_v<typename R::in_t, typename R::acc_t>) {
      using S = ScanOf<R>;
      launch(S{}, static_cast<const typename S::in_t*>(call.in), static_cast<typename S::out_t*>(call.out));
    }
  });
}

// scan_lookback_kernel (lookback_tile.cuh: one tile per block) under policy P.
template <class P>
struct OneTileLookback {
  static void run(const char* variant, const ScanCall& call) {
    run_four_byte_native(variant, call, [&](const auto& f, const auto* in, auto* out) {
      run_lookback<P>("scan_lookback_kernel", f, in, out, call.spec.n, call.spec.exclusive, nullptr, call.workspace,
                      call.stream);
    });
  }
  static std::size_t workspace(const ScanSpec& spec) { return lookback_workspace<P>(spec); }
};

// scan_lookback_early_kernel (lookback_early.cuh: aggregate published before
// the row scans, sparse re-poll) under policy P.
template <class P>
struct EarlyPublishLookback {
  static void run(const char* variant, const ScanCall& call) {
    run_four_byte_native(variant, call, [&](const auto& f, const auto* in, auto* out) {
      run_lookback_early<P>("scan_lookback_early_kernel", f, in, out, call.spec.n, call.spec.exclusive,
                            call.workspace, call.stream);
    });
  }
  static std::size_t workspace(const ScanSpec& spec) { return lookback_workspace<P>(spec); }
};

// The warp-specialised kernel's shape (lookback_bulk.cuh): 256 consumer
// threads x 12 vectors = 48 KiB tiles (lookback_early_publish's tile, the
// best one-tile shape on the H100: 84.5% of copy against 83.4% at 32 KiB,
// docs/results/scan-h100-2026-11-23b.txt), streaming stores, 4 tile buffers:
// 3 tiles (144 KiB) of loads in flight per SM where ~31 KiB suffice.
using BulkConsumers = gpu::LookbackPolicy<256, 12, 1, 1, gpu::CacheHint::streaming>;
constexpr int BULK_BUFFERS = 4;
static_assert(gpu::bulk_scan_smem_bytes<BulkConsumers, BULK_BUFFERS>() == 192 * 1024, "4 x 48 KiB tiles");
// The 4 buffers plus ~1.3 KiB of static shared memory.
constexpr std::size_t BULK_SHARED_BYTES = gpu::bulk_scan_smem_bytes<BulkConsumers, BULK_BUFFERS>() + 4 * 1024;
// Below sm_90 (no bulk copies), or where a block cannot opt in to that much
// shared memory: the early-publishing kernel on the same tiles, 2 blocks per SM.
using BulkFallback = gpu::LookbackPolicy<256, 12, 1, 2, gpu::CacheHint::streaming>;
static_assert(BulkConsumers::THREADS * BulkConsumers::VECTORS == BulkFallback::THREADS * BulkFallback::VECTORS,
              "one workspace for both kernels: the same tiles");

// scan_lookback_bulk_kernel (lookback_bulk.cuh) with PER_LANE status slots per
// lane in the look-back warp's polls, or its fallback.
template <int PER_LANE>
struct BulkLookback {
  static void run(const char* variant, const ScanCall& call) {
    run_four_byte_native(variant, call, [&](const auto& f, const auto* in, auto* out) {
      if (gpu::bulk_kernel_fits(BULK_SHARED_BYTES))
        run_lookback_bulk<BulkConsumers, BULK_BUFFERS, PER_LANE>("scan_lookback_bulk_kernel", f, in, out, call.spec.n,
                                                                 call.spec.exclusive, call.workspace, call.stream);
      else
        run_lookback_early<BulkFallback>("scan_lookback_early_kernel", f, in, out, call.spec.n, call.spec.exclusive,
                                         call.workspace, call.stream);
    });
  }
  static std::size_t workspace(const ScanSpec& spec) { return lookback_workspace<BulkConsumers>(spec); }
};

}  // namespace tessera::scan_impl
