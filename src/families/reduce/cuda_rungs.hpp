// The CUDA rungs of the reduce ladder (steps 2-10) and the vendor baseline
// (step 11). Each rung provides
//   run_X(call)        enqueue the reduction on call.stream (no allocation, no
//                      host synchronisation: graph-capturable);
//   ws_X(spec)         workspace bytes run_X needs (0 when n == 0);
//   supports_X(spec)   whether the rung handles (dtype, op, accum).
// ladder.cpp turns them into the family's table. Plain C++: no CUDA headers
// needed to include this.
#pragma once

#include <cstddef>

#include "families/reduce/contract.hpp"

namespace tessera::reduce_impl {

#define TESSERA_DECLARE_REDUCE_RUNG(name)              \
  void run_##name(const ReduceCall& call);             \
  std::size_t ws_##name(const ReduceSpec& spec);       \
  bool supports_##name(const ReduceSpec& spec);

// 02_neighbored_divergent.cu
TESSERA_DECLARE_REDUCE_RUNG(neighbored_divergent)
// 03_neighbored_contiguous.cu
TESSERA_DECLARE_REDUCE_RUNG(neighbored_contiguous)
// 04_interleaved.cu
TESSERA_DECLARE_REDUCE_RUNG(interleaved)
// 05_early_exit.cu (the atomic variant rejects Kahan and double-float sums)
TESSERA_DECLARE_REDUCE_RUNG(early_exit_atomic)
TESSERA_DECLARE_REDUCE_RUNG(early_exit_two_pass)
// 06_cascading.cu
TESSERA_DECLARE_REDUCE_RUNG(first_add_during_load)
TESSERA_DECLARE_REDUCE_RUNG(unroll2)
TESSERA_DECLARE_REDUCE_RUNG(unroll4)
TESSERA_DECLARE_REDUCE_RUNG(unroll8)
TESSERA_DECLARE_REDUCE_RUNG(grid_stride)
// 07_last_warp_unroll.cu
TESSERA_DECLARE_REDUCE_RUNG(last_warp_unroll)
// 08_complete_unroll.cu (block size 256)
TESSERA_DECLARE_REDUCE_RUNG(complete_unroll)
// 09_warp_shuffle.cu
TESSERA_DECLARE_REDUCE_RUNG(warp_shuffle_down)
TESSERA_DECLARE_REDUCE_RUNG(warp_shuffle_xor)
// 10_single_pass.cu
TESSERA_DECLARE_REDUCE_RUNG(single_pass)
// 11_cub_device_reduce.cu
TESSERA_DECLARE_REDUCE_RUNG(cub_device_reduce)

#undef TESSERA_DECLARE_REDUCE_RUNG

// 08_complete_unroll.cu with an explicit block size, one of
// complete_unroll_block_sizes (anything else throws tessera::Error): the
// runtime switch over the template instantiations, for tests and block-size
// sweeps. run_complete_unroll / ws_complete_unroll use block 256.
inline constexpr int complete_unroll_block_sizes[] = {64, 128, 256, 512, 1024};
void run_complete_unroll_block(const ReduceCall& call, int block_threads);
std::size_t ws_complete_unroll_block(const ReduceSpec& spec, int block_threads);

}  // namespace tessera::reduce_impl
