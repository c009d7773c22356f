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
// ~600-cycle L2 latency at these slab times. Not yet measured on the H100:
// the dispatcher's rates (WarpTiledConfig::tflops) are predictions until the
// first bench.
#pragma once

#include "cuda/gemm/10_warp_tiled.cuh"
#include "cuda/gemm/rungs.hpp"

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

}  // namespace tessera::gemm_impl::dev

// The definitions behind TESSERA_DECLARE_WARP_TILED(CFG) in rungs.hpp, one
// configuration per file (10_warp_tiled_<CFG>.cu) so that they compile in
// parallel: the A*B variant and the dispatcher's entry.
#define TESSERA_DEFINE_WARP_TILED(CFG)                                                                    \
  namespace tessera::gemm_impl {                                                                          \
  void run_warp_tiled_##CFG(const GemmCall& call) { dev::run_warp_tiled_ab<dev::Policy##CFG>(call); }      \
  WarpTiledKernels warp_tiled_kernels_##CFG() { return dev::warp_tiled_kernels<dev::Policy##CFG>(); }       \
  }
