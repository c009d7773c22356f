// The tile configurations of step 10 (tuning as data). Each is one registered
// variant (warp_tiled_<BM>x<BN>x<BK>) so that one GPU run measures them all;
// the dispatcher (10_warp_tiled_dispatch.cu) picks among them by size.
//
// Provenance: the 128 x 128 block, 256 threads, 64 x 32 warp tiles and 8 x 8
// micro-tiles are the known FP32 SIMT recipe (CUTLASS's SIMT SGEMM, the
// Volta/Ampere SGEMM write-ups: ~90-100% of cuBLAS on A100); BK 8 vs 16
// trades barriers per flop against shared memory; 128 x 256 with 8 x 16
// micro-tiles raises FFMA per LDS (128 : 6) at one block per SM; 128 x 64 and
// 64 x 64 serve sizes whose 128 x 128 tiles leave SMs idle (1000 x 3000 has
// 192 such tiles for 132 SMs). Three stages: two slabs in flight cover the
// ~600-cycle L2 latency at these slab times. The dispatcher's rates
// (WarpTiledConfig::tflops) are the H100 bench's, except for configurations
// not yet benched (10_warp_tiled_dispatch.cu).
#pragma once

#include "families/gemm/10_warp_tiled.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl::dev {

// WHOLE_SLAB_COPIES (the last argument) by the compiler's report (-Xptxas
// -v, CUDA 12, sm_90): 128x128x8's 16-byte-B kernel spills 4 bytes at the
// 128-register cap without it, 128x64x16's spills 72-128 bytes with it, the
// others are spill-free either way.
//
//                                     BM   BN  BK  WM  WN TM  TN STAGES MIN_BLOCKS WHOLE_SLAB_COPIES
using Policy128x128x8 = WarpTiledPolicy<128, 128, 8, 64, 32, 8, 8, 3, 2, true>;  // 256 threads, 25 KiB smem
using Policy128x128x16 = WarpTiledPolicy<128, 128, 16, 64, 32, 8, 8, 3, 2>;  // 256 threads, 51 KiB smem
using Policy128x256x8 = WarpTiledPolicy<128, 256, 8, 64, 64, 8, 16, 3, 1>;   // 256 threads, 38 KiB, 128 accumulators
using Policy128x64x16 = WarpTiledPolicy<128, 64, 16, 64, 32, 8, 8, 3, 4>;    // 128 threads, 38 KiB smem
using Policy64x64x16 = WarpTiledPolicy<64, 64, 16, 32, 32, 4, 8, 3, 4>;      // 128 threads, 26 KiB smem

// Interior copies (INTERIOR_COPIES, the last argument). The sm_90 SASS of
// 128x128x16's main loop (cuobjdump -sass, 16-byte B kernel): per k slab and
// warp 1024 FFMA, 64 LDS.128 and ~150 other instructions, ~110 of them the
// ten guarded copies (per copy: k and row tests, a select of the fallback
// address, a source-size select, 64-bit address arithmetic): FFMA are 82% of
// the issue slots, an upper bound near the measured 74% of the FP32 rate.
// Threads whose copies lie inside the matrices (all but the edge tiles')
// issue them unguarded with immediate offsets, ~25 instructions: FFMA 88%
// of issue. 128x128x32 also halves the barriers and per-slab bookkeeping per
// FFMA (99 KiB smem: 2 blocks still fit in 228 KiB). Predictions (to be
// measured): 128x128x16_ic 46-47 TFLOP/s at 8192^3, 128x128x32_ic 46-48.
using Policy128x128x16_ic = WarpTiledPolicy<128, 128, 16, 64, 32, 8, 8, 3, 2, false, true>;  // 51 KiB smem
using Policy128x128x32_ic = WarpTiledPolicy<128, 128, 32, 64, 32, 8, 8, 3, 2, false, true>;  // 99 KiB smem
// 8 x 16 micro-tiles (128 FFMA per 6 LDS.128) need ~210 registers: one
// 256-thread block per SM, whose barriers idle the SM — BK = 16 halves them
// against 128x256x8, the interior copies cut the copy overhead.
using Policy128x256x16_ic = WarpTiledPolicy<128, 256, 16, 64, 64, 8, 16, 3, 1, false, true>;  // 74 KiB smem

// Paired lanes (PAIRED_LANES, the last argument; 10_warp_tiled.cuh "Paired
// lanes"): the _ic configurations with the lane grid that lets each LDS.128
// return in 2 shared-memory cycles instead of 4 for B. Fragment reads per k
// and warp: 12 -> 8 return cycles for 8 x 8 (64 FFMA), 20 -> 12 for 8 x 16
// (128 FFMA); with the cp.async writes the shared-memory pipe of an SM goes
// from ~81% to ~56% busy at 128x128x16 (2 blocks/SM), which stalled the FFMA
// stream. Same instructions, registers and shared memory as the _ic kernels.
// Predictions (to be measured): 128x128x16_pl 48-50 TFLOP/s at 4096^3 and
// 8192^3, 128x128x32_pl 48-50, 128x256x16_pl 46-49.
using Policy128x128x16_pl = WarpTiledPolicy<128, 128, 16, 64, 32, 8, 8, 3, 2, false, true, true>;   // 51 KiB smem
using Policy128x128x32_pl = WarpTiledPolicy<128, 128, 32, 64, 32, 8, 8, 3, 2, false, true, true>;   // 99 KiB smem
using Policy128x256x16_pl = WarpTiledPolicy<128, 256, 16, 64, 64, 8, 16, 3, 1, false, true, true>;  // 74 KiB smem

// The _ic configurations (and plain 128x64x16) with serpentine multiply-adds.
using Policy128x128x16_sp = WarpTiledPolicy<128, 128, 16, 64, 32, 8, 8, 3, 2, false, true, false, true>;  // 51 KiB smem
using Policy128x128x32_sp = WarpTiledPolicy<128, 128, 32, 64, 32, 8, 8, 3, 2, false, true, false, true>;  // 99 KiB smem
using Policy128x64x16_sp = WarpTiledPolicy<128, 64, 16, 64, 32, 8, 8, 3, 4, false, false, false, true>;   // 38 KiB smem

}  // namespace tessera::gemm_impl::dev

// The definitions behind TESSERA_DECLARE_WARP_TILED(CFG) in rungs.hpp, one
// configuration per file (10_warp_tiled_<CFG>.cu) so that they compile in
// parallel: the A*B variant and the dispatcher's entry.
#define TESSERA_DEFINE_WARP_TILED(CFG)                                                                    \
  namespace tessera::gemm_impl {                                                                          \
  void run_warp_tiled_##CFG(const GemmCall& call) { dev::run_warp_tiled_ab<dev::Policy##CFG>(call); }      \
  WarpTiledKernels warp_tiled_kernels_##CFG() { return dev::warp_tiled_kernels<dev::Policy##CFG>(); }       \
  }
