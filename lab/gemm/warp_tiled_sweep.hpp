// The lab's rows of the gemm ladder (CUDA builds): step 10's kernel swept
// over tile configurations and code-generation options
// (warp_tiled_sweep.cu), split-k factors (warp_tiled_split_k.cpp) and the
// stream-K tail (warp_tiled_stream_k.cu).
// Each is a measured experiment; docs/gemm.md ("What was tried") has the
// results.
#pragma once

#include <span>

#include "families/gemm/contract.hpp"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_lab {

// One configuration of the sweep: its tuning row (warp_tiled_<config>) and
// its kernels (the symmetric A*A^T one too, which only the tests run).
struct SweepEntry {
  gemm_impl::GemmVariant row;
  gemm_impl::WarpTiledKernels kernels;
};
std::span<const SweepEntry> warp_tiled_sweep();

// warp_tiled_<tile>_split<S>: each product configuration pinned to S k
// slices (warp_tiled_split_k.cpp), S = 2, 3, 4, 6, 8.
std::span<const gemm_impl::GemmVariant> warp_tiled_split_k_rows();

// warp_tiled_128x128x16_stream_k: the product's 128x128x16 serpentine
// configuration with the stream-K tail.
const gemm_impl::GemmVariant& warp_tiled_stream_k_row();
// Its split of `spec` on the current device (tests: that a shape is split).
struct StreamKSplit {
  unsigned sk_blocks, sk_tiles, iters;  // sk_blocks == 0: data-parallel only
};
StreamKSplit warp_tiled_stream_k_split(const gemm_impl::GemmSpec& spec);

}  // namespace tessera::gemm_lab
