// The CUDA rungs of the convolution ladders (steps 2-9); ladder.cpp lists
// them. Each run_X(call) enqueues the convolution on call.stream (nothing
// for an empty image; no allocation, no host synchronisation). Rungs without
// a supports_X support every spec; without a ws_X need no workspace. Plain
// C++: no CUDA headers needed to include this.
#pragma once

#include <cstddef>

#include "families/convolution/contract.hpp"

namespace tessera::convolution_impl {

// 02_basic.cu
void run_basic(const ConvCall& call);
// 03_constant_mask.cu: at most tiles::CONST_TAPS taps
void run_constant_mask(const ConvCall& call);
bool supports_constant_mask(const ConvSpec& s);
// 04_tiled_output_blocks.cu: strategy 1
void run_tiled_output_blocks(const ConvCall& call);
bool supports_tiled_output_blocks(const ConvSpec& s);
// 05_tiled_input_blocks.cu: strategy 2
void run_tiled_input_blocks(const ConvCall& call);
bool supports_tiled_input_blocks(const ConvSpec& s);
// 06_tiled_interior_l2.cu: strategy 3 (the constant mask's limit)
void run_tiled_interior_l2(const ConvCall& call);
// 07_register_blocked.cu
void run_register_blocked(const ConvCall& call);
bool supports_register_blocked(const ConvSpec& s);
// 07_register_blocked_wide.cu: 2D, square masks of 3, 5, 7, 9
void run_register_blocked_wide(const ConvCall& call);
bool supports_register_blocked_wide(const ConvSpec& s);
// 07_separable.cu: rank-1 masks (spec.separable)
void run_separable(const ConvCall& call);
bool supports_separable(const ConvSpec& s);
// 07_pipelined_tiles.cu: 2D, square masks of 1, 3, 5, 7, 9; persistent,
// double-buffered tiles taken from a counter in the workspace (ws_)
void run_pipelined_tiles(const ConvCall& call);
bool supports_pipelined_tiles(const ConvSpec& s);
std::size_t ws_pipelined_tiles(const ConvSpec& s);
void prepare_pipelined_tiles(const ConvSpec& s);
// 08_fft_overlap_save.cu: 1D
void run_fft_overlap_save(const ConvCall& call);
bool supports_fft_overlap_save(const ConvSpec& s);
std::size_t ws_fft_overlap_save(const ConvSpec& s);
void prepare_fft_overlap_save(const ConvSpec& s);
// 09_cufft_whole_signal.cu: 1D, the vendor baseline
void run_cufft_whole_signal(const ConvCall& call);
bool supports_cufft_whole_signal(const ConvSpec& s);
std::size_t ws_cufft_whole_signal(const ConvSpec& s);
void prepare_cufft_whole_signal(const ConvSpec& s);
// 08_fft_fused.cu: 1D, masks up to FUSED_MAX_TAPS (fft_geometry.hpp)
void run_fft_fused(const ConvCall& call);
bool supports_fft_fused(const ConvSpec& s);
std::size_t ws_fft_fused(const ConvSpec& s);

}  // namespace tessera::convolution_impl
