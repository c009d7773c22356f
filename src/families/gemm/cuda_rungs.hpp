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

// C = A*B ladder (steps 2-10). Steps 2-9 compute op(A), op(B) = N,N only
// (supports: is_ab_nn); step 10 and the vendor take every op.
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

// Step 10: one kernel template (10_warp_tiled.cuh), the tile configurations
// warp_tiled chooses among (10_warp_tiled_policies.cuh) and the choice
// (10_warp_tiled_dispatch.cu, by policy.hpp).
struct WarpTiledKernels {
  int bm, bn, bk;                     // block tile
  void (*run_ab)(const GemmCall&);    // one block per tile; every op(A), op(B) (lab-only tiles: N,N)
  void (*run_aat)(const GemmCall&);   // symmetric A*A^T; nullptr unless bm == bn
  int (*resident_blocks)();           // blocks per SM on the current device (occupancy API)
  // In `splits` k slices (1: run_ab), every op(A), op(B); its workspace:
  // warp_tiled_split_workspace_bytes. nullptr for the lab-only tiles.
  void (*run_ab_split)(const GemmCall&, unsigned splits);
};
// The kernels of policy::WARP_TILED_TILES, in its order.
std::span<const WarpTiledKernels> warp_tiled_kernels();
// What the dispatcher runs for `spec` on the current device: an index into
// policy::WARP_TILED_TILES and the number of k slices (policy.hpp).
struct WarpTiledChoice {
  std::size_t tile;
  unsigned splits;
};
WarpTiledChoice choose_warp_tiled(const GemmSpec& spec);
// Split-k's workspace: one m x n FP32 partial per slice (0 for splits <= 1).
std::size_t warp_tiled_split_workspace_bytes(const GemmSpec& spec, unsigned splits);
std::size_t warp_tiled_workspace_bytes(const GemmSpec& spec);  // of the dispatcher's choice
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
