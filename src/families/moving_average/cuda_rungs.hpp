// The CUDA rungs of the moving_average ladder (ladder.cpp lists them). Each
// provides run_X(call) (enqueue on call.stream: no allocation, no host
// synchronisation; nothing for n == 0), supports_X(spec) and, where it needs
// scratch, ws_X(spec). Every CUDA rung takes float; shared_window and
// running_sum_tiled take double too. Plain C++: no CUDA
// headers needed to include this.
#pragma once

#include <cstddef>

#include "families/moving_average/contract.hpp"

namespace tessera::moving_average_impl {

// 02_juxtaposed_halo.cu: the seed's 3-point average, halo from global memory (w = 3)
void run_juxtaposed_halo(const MovingAverageCall& call);
bool supports_three_point(const MovingAverageSpec& spec);
// 03_overlapping_blocks.cu: the seed's 3-point average, everything in shared memory (w = 3)
void run_overlapping_blocks(const MovingAverageCall& call);
// 04_shared_window.cu: any w and weights, register-blocked direct form (float,
// and double up to MAX_TILED_W)
void run_shared_window(const MovingAverageCall& call);
bool supports_shared_window(const MovingAverageSpec& spec);
// 05_running_sum_global.cu: box filter from one float prefix over the array (tessera's scan)
void run_running_sum_global(const MovingAverageCall& call);
bool supports_running_sum_global(const MovingAverageSpec& spec);
std::size_t ws_running_sum_global(const MovingAverageSpec& spec);
// 06_running_sum_tiled.cu: box filter from a prefix re-anchored at each tile,
// accumulated in float (float samples) or in double (the compensated one;
// float or double samples)
void run_running_sum_tiled_float(const MovingAverageCall& call);
bool supports_running_sum_tiled_float(const MovingAverageSpec& spec);
void run_running_sum_tiled(const MovingAverageCall& call);
bool supports_running_sum_tiled(const MovingAverageSpec& spec);
// 07_running_sum_segmented.cu: box filter from float prefixes re-anchored
// every 128 samples, the segment totals carried in double (float samples)
void run_running_sum_segmented(const MovingAverageCall& call);
bool supports_running_sum_segmented(const MovingAverageSpec& spec);

// The widest windows the shared-memory rungs stage (tile plus halo, and for
// the tiled running sum its padded double prefixes, in one block's 227 KB).
inline constexpr std::size_t MAX_SHARED_W = 16383;
inline constexpr std::size_t MAX_TILED_W = 8191;

}  // namespace tessera::moving_average_impl
