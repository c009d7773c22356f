// The CUDA rungs of the GEMM ladders and the vendor baselines. Each provides
// run_X(call): enqueue the product on call.stream (no allocation, no host
// synchronisation: graph-capturable); an empty C (m == 0 or n == 0) launches
// nothing. ladder.cpp turns them into the GemmVariant table. Plain C++: no
// CUDA headers needed to include this.
#pragma once

#include <span>
#include <string_view>

#include "families/gemm/contract.hpp"

namespace tessera::gemm_impl {

// C = A*B ladder (steps 2-10).
void run_naive(const GemmCall& call);               // 02_naive.cu
void run_simple_blocked(const GemmCall& call);      // 03_simple_blocked.cu
void run_shared_a_syncwarp(const GemmCall& call);   // 04_shared_a_syncwarp.cu
void run_tiled_16(const GemmCall& call);            // 05_tiled.cu
void run_tiled_32(const GemmCall& call);
void run_double_buffered(const GemmCall& call);     // 06_double_buffered.cu
void run_rect_tiles_s8(const GemmCall& call);       // 07_rect_tiles.cu
void run_rect_tiles_s32(const GemmCall& call);
void run_rect_tiles_s64(const GemmCall& call);
void run_joint_register(const GemmCall& call);      // 08_joint_register.cu
void run_thread_coarsened(const GemmCall& call);    // 09_thread_coarsened.cu

// Step 10 (10_warp_tiled*.cu): one kernel template, several tile
// configurations, and the size-dependent choice among them.
struct WarpTiledKernels {
  int bm, bn, bk;                     // block tile
  void (*run_ab)(const GemmCall&);
  void (*run_aat)(const GemmCall&);   // symmetric A*A^T; nullptr unless bm == bn
  int (*resident_blocks)();           // blocks per SM on the current device (occupancy API)
};
#define TESSERA_DECLARE_WARP_TILED(CFG)              \
  void run_warp_tiled_##CFG(const GemmCall& call); \
  WarpTiledKernels warp_tiled_kernels_##CFG();
TESSERA_DECLARE_WARP_TILED(128x128x8)   // 10_warp_tiled_128x128x8.cu
TESSERA_DECLARE_WARP_TILED(128x128x16)  // 10_warp_tiled_128x128x16.cu
TESSERA_DECLARE_WARP_TILED(128x256x8)   // 10_warp_tiled_128x256x8.cu
TESSERA_DECLARE_WARP_TILED(128x64x16)   // 10_warp_tiled_128x64x16.cu
TESSERA_DECLARE_WARP_TILED(64x64x16)    // 10_warp_tiled_64x64x16.cu
TESSERA_DECLARE_WARP_TILED(128x128x16_ic)  // 10_warp_tiled_128x128x16_ic.cu
TESSERA_DECLARE_WARP_TILED(128x128x32_ic)  // 10_warp_tiled_128x128x32_ic.cu
TESSERA_DECLARE_WARP_TILED(128x256x16_ic)  // 10_warp_tiled_128x256x16_ic.cu
TESSERA_DECLARE_WARP_TILED(128x128x16_pl)  // 10_warp_tiled_128x128x16_pl.cu
TESSERA_DECLARE_WARP_TILED(128x128x32_pl)  // 10_warp_tiled_128x128x32_pl.cu
TESSERA_DECLARE_WARP_TILED(128x256x16_pl)  // 10_warp_tiled_128x256x16_pl.cu
TESSERA_DECLARE_WARP_TILED(128x128x16_sp)  // 10_warp_tiled_128x128x16_sp.cu
TESSERA_DECLARE_WARP_TILED(128x128x32_sp)  // 10_warp_tiled_128x128x32_sp.cu
TESSERA_DECLARE_WARP_TILED(128x64x16_sp)   // 10_warp_tiled_128x64x16_sp.cu
#undef TESSERA_DECLARE_WARP_TILED
// 128x128x16_sp with the stream-K tail (10_warp_tiled_128x128x16_sk.cu): its
// workspace holds the partial tiles and arrival counters of the split.
void run_warp_tiled_128x128x16_sk(const GemmCall& call);
std::size_t warp_tiled_128x128x16_sk_workspace(const GemmSpec& spec);
// Its split of `spec` on the current device (tests: that a shape is split).
struct StreamKSplit {
  unsigned sk_blocks, sk_tiles, iters;  // sk_blocks == 0: data-parallel only
};
StreamKSplit warp_tiled_128x128x16_sk_split(const GemmSpec& spec);

// The dispatcher's table (10_warp_tiled_dispatch.cu): each configuration with
// its measured (or, before the first bench, predicted) FP32 rate.
struct WarpTiledConfig {
  std::string_view name;  // "128x128x8"
  double tflops;          // full-occupancy rate on large squares, H100
  WarpTiledKernels kernels;
};
std::span<const WarpTiledConfig> warp_tiled_configs();
// The configuration the dispatcher picks for `spec` on the current device.
const WarpTiledConfig& choose_warp_tiled(const GemmSpec& spec);
void run_warp_tiled(const GemmCall& call);  // the dispatcher (A*B)

// C = A*A^T ladder (steps 12-15).
void run_aat_naive(const GemmCall& call);           // 12_aat_naive.cu
void run_aat_transposed_tile(const GemmCall& call); // 13_aat_shared_tile.cu
void run_aat_padded_tile(const GemmCall& call);
void run_aat_warp_tiled(const GemmCall& call);      // 10_warp_tiled_dispatch.cu (symmetric)

// The vendor baselines (11_cublas_sgemm.cu): cublasSgemm (step 11) and
// cublasSsyrk (step 16, lower triangle only), FP32 math; both take the
// cuBLAS workspace from the call.
bool supports_cublas_sgemm(const GemmSpec& spec);
bool supports_cublas_ssyrk(const GemmSpec& spec);
std::size_t cublas_workspace_bytes(const GemmSpec& spec);
void run_cublas_sgemm(const GemmCall& call);
void run_cublas_ssyrk(const GemmCall& call);

// Copies the lower triangle of the m x m matrix C onto its upper triangle
// (mirror.cu): completes a lower-triangle (SYRK) result for the public API.
void mirror_lower_to_upper(float* c, std::size_t m, std::size_t ldc, stream_t stream);

}  // namespace tessera::gemm_impl
