// Host side of the look-back scan inside the library: the policies and the
// checked launch (workspace clear + one kernel) shared by step 9's variants
// (09_lookback.cu) and the internal exclusive sum (exclusive_sum.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/scan/lookback_persistent.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::scan_impl {

// Policies (gpu::LookbackPolicy<THREADS, VECTORS, LOOKBACK_PER_LANE,
// MIN_BLOCKS>). Not yet measured: designed from the H100's numbers (132 SMs,
// ~3 TB/s, L2 round trip ~0.3-0.6 us under load); the GPU run picks.
//
// Primary: 256 threads x 4 vectors = 16 floats (8 doubles) per thread, 16 KiB
// tiles. 4 status slots per lane: one look-back round trip covers 128
// predecessors (2 MiB of data), so the inclusive prefixes propagate faster
// than a 32-wide window allows (32 tiles x 32 KiB moved per round trip caps a
// 32-wide look-back near 2 TB/s at 0.5 us). MIN_BLOCKS 4: at most 64
// registers, 1024 threads and 64 KiB of loads in flight per SM.
using LookbackPrimary = gpu::LookbackPolicy<256, 4, 4, 4>;
// Twice the tile (32 floats per thread): half the tiles and look-backs, two
// blocks per SM.
using LookbackLargeTiles = gpu::LookbackPolicy<256, 8, 4, 2>;
// Half the block (128 threads, 8 KiB tiles), up to 8 blocks per SM: a block
// waiting on its look-back idles fewer threads.
using LookbackSmallBlocks = gpu::LookbackPolicy<128, 4, 4, 8>;

// Tuning rows after the first H100 bench (float sum 2^28: primary 55% of copy,
// large tiles 68%, small blocks 55%; the dfloat accumulator at 53% says the
// cost is per-tile latency, not compute). Each changes one thing over
// lookback_large_tiles, the best measured, so the next bench attributes the
// difference. Predictions are % of copy for the float sum at 2^28.
//
// Narrow windows: 1 or 2 slots per lane (32 / 64 predecessors, 256 / 512 B
// per poll instead of 1 KiB). With 2 blocks x 132 SMs ~ 264 tiles in flight
// the nearest inclusive prefix is rarely more than ~100 tiles back, and every
// poll of every waiting warp hits the same few L2 lines: a smaller poll is a
// shorter L2 transaction and less contention. Predicted 70-74%.
using LookbackWindow32 = gpu::LookbackPolicy<256, 8, 1, 2>;
using LookbackWindow64 = gpu::LookbackPolicy<256, 8, 2, 2>;
// No back-off: waiting warps re-poll at once (the 32-256 ns sleeps add up to
// a quarter of a tile's DRAM time when the predecessor publishes just after
// the sleep starts). Predicted 68-72%.
using LookbackNoBackoff = gpu::LookbackPolicy<256, 8, 4, 2, gpu::CacheHint::normal, 0>;
// Bigger blocks, CUB-like shapes (CUB sm_90: ~384 threads x 12-17 items):
// 384 x 6 vectors (24 floats per thread, 36 KiB tiles), 2 blocks per SM ->
// 72 KiB of loads in flight per SM, <= 85 registers. Fewer tiles (7282 at
// 2^28) and a look-back per 36 KiB. Predicted 72-78%.
using Lookback384x6 = gpu::LookbackPolicy<384, 6, 2, 2>;
// 512 x 4 vectors (16 floats per thread, 32 KiB tiles), 2 blocks per SM:
// 64 KiB in flight with the primary's 64-register budget; 16 warps per block
// cover the look-back warp's latency better than 8. Predicted 68-74%.
using Lookback512x4 = gpu::LookbackPolicy<512, 4, 2, 2>;
// Persistent and pipelined (lookback_persistent.cuh): one block per resident
// slot loops over tiles and loads its next tile before looking back, so the
// SM's reads never stop behind a look-back. 256 x 4 vectors, 3 blocks per SM
// (<= 85 registers: two tiles of data live per thread): up to 6 x 16 KiB of
// loads in flight per SM, no block launch or drain per tile. Predicted 85-92%.
using LookbackPersistent = gpu::LookbackPolicy<256, 4, 2, 3>;
// The same with 32 KiB tiles, 2 blocks per SM (<= 128 registers). Predicted 85-90%.
using LookbackPersistentLarge = gpu::LookbackPolicy<256, 8, 2, 2>;

// Enqueues the scan of n elements on `stream`: zero the counter and status
// slots, one kernel. `workspace` holds LookbackScan<P, F>::workspace_bytes(n)
// bytes. n == 0 does nothing.
template <class P, class F>
void run_lookback(const char* kernel_name, const F& f, const typename F::in_t* in, typename F::out_t* out,
                  std::size_t n, bool exclusive, typename F::out_t* total, void* workspace, cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  const unsigned grid = gpu::checked_grid(layout.tiles, kernel_name, n);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, L::clear_bytes(layout), stream));
  detail::launch(kernel_name, gpu::scan_lookback_kernel<P, F>, dim3(grid), dim3(P::THREADS), 0, stream, n, in, out,
                 layout, workspace, total, f);
}

// The persistent kernel's launch: the same workspace and clear, grid = the
// blocks resident at once (occupancy query; no allocation, no sync), capped by
// the tile count.
template <class P, class F>
void run_lookback_persistent(const char* kernel_name, const F& f, const typename F::in_t* in,
                             typename F::out_t* out, std::size_t n, bool exclusive, void* workspace,
                             cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  int device = 0, sms = 0, per_sm = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gpu::scan_lookback_persistent_kernel<P, F>,
                                                             P::THREADS, 0));
  const std::size_t resident = static_cast<std::size_t>(sms) * static_cast<std::size_t>(per_sm > 0 ? per_sm : 1);
  const unsigned grid = gpu::checked_grid(layout.tiles < resident ? layout.tiles : resident, kernel_name, n);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, L::clear_bytes(layout), stream));
  detail::launch(kernel_name, gpu::scan_lookback_persistent_kernel<P, F>, dim3(grid), dim3(P::THREADS), 0, stream,
                 n, in, out, layout, workspace, static_cast<typename F::out_t*>(nullptr), f);
}

}  // namespace tessera::scan_impl
