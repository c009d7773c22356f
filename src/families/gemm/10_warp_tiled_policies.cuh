// The tile configurations of step 10 that warp_tiled chooses among, in the
// order of policy.hpp's WARP_TILED_TILES (which rates them and says where the
// rates come from). Instantiated once, in 10_warp_tiled_dispatch.cu; the
// lab's sweep (lab/gemm/warp_tiled_sweep.cu) holds the configurations that
// were measured and not kept.
//
// Provenance: the 128 x 128 block, 256 threads, 64 x 32 warp tiles and 8 x 8
// micro-tiles are the known FP32 SIMT recipe (CUTLASS's SIMT SGEMM, the
// Volta/Ampere SGEMM write-ups: ~90-100% of cuBLAS on A100); BK = 16 halves
// 128x128x8's barriers per flop; 128 x 64 and 64 x 64 serve sizes whose
// 128 x 128 tiles leave SMs idle (1000 x 3000 has 192 such tiles for 132
// SMs). Three stages: two slabs in flight cover the ~600-cycle L2 latency at
// these slab times. Registers (-Xptxas -v, sm_90): all spill-free at the
// MIN_BLOCKS cap (docs/gemm.md).
#pragma once

#include "families/gemm/10_warp_tiled.cuh"

namespace tessera::gemm_impl::dev {

//                                         BM   BN  BK  WM  WN TM TN STAGES MIN_BLOCKS  options
// 128 threads, 38 KiB smem: many small tiles where 128 x 128 leaves SMs idle.
using Tiles128x64x16 = WarpTiledPolicy<128, 64, 16, 64, 32, 8, 8, 3, 4>;
// 128 threads, 26 KiB smem, 4 x 8 per thread: small and ragged sizes.
using Tiles64x64x16 = WarpTiledPolicy<64, 64, 16, 32, 32, 4, 8, 3, 4>;
// 256 threads, 51 KiB smem: interior copies (~110 fewer issue slots per 1024
// FFMA, +2 TFLOP/s) and serpentine multiply-adds (+5-7%) on the 128 x 128 x 16
// tile; the large sizes' configuration.
using Tiles128x128x16Serpentine =
    WarpTiledPolicy<128, 128, 16, 64, 32, 8, 8, 3, 2, codegen::INTERIOR_COPIES | codegen::SERPENTINE_FMA>;

}  // namespace tessera::gemm_impl::dev
