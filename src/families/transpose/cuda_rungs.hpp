// The CUDA rungs of the transpose ladder (steps 2-7). Each provides
//   run_X(call)  enqueue the transpose on call.stream (no allocation, no host
//                synchronisation: graph-capturable; nothing for an empty
//                matrix);
// every rung supports the 4- and 8-byte element types (word_sized). variants.cpp
// turns them into the TransposeVariant table. Plain C++: no CUDA headers
// needed to include this.
#pragma once

#include "families/transpose/contract.hpp"

namespace tessera::transpose_impl {

// 02_naive.cu: the lower bound and its mirror image
void run_naive_strided_write(const TransposeCall& call);
void run_naive_strided_read(const TransposeCall& call);
// 02_copy_bound.cu: the upper bound (Output::copy)
void run_copy_bound(const TransposeCall& call);
// 03_shared_tile.cu
void run_shared_tile(const TransposeCall& call);
// 04_padded_tile.cu
void run_padded_tile(const TransposeCall& call);
// 05_unroll.cu
void run_unroll2(const TransposeCall& call);
void run_unroll4(const TransposeCall& call);
// 06_block_shapes.cu: the block-shape candidates, TILE x BLOCK_ROWS
void run_tile16_16x16(const TransposeCall& call);
void run_tile16_16x8(const TransposeCall& call);
void run_tile32_32x4(const TransposeCall& call);
void run_tile64_64x8(const TransposeCall& call);
void run_tile64_64x16(const TransposeCall& call);
// 07_grouped_order.cu
void run_grouped_order(const TransposeCall& call);
// 07_vec16_swizzle.cu
void run_vec16_swizzle(const TransposeCall& call);
void run_vec16_grouped(const TransposeCall& call);
// 07_vec16_persistent.cu
void run_vec16_persistent(const TransposeCall& call);
void run_vec16_persistent_cs(const TransposeCall& call);
void run_vec16_persistent2(const TransposeCall& call);
// Whether the vec16 rungs (07_vec16_swizzle.cu, 07_vec16_persistent.cu)
// take their 16-byte path for this call (pointers 16-byte aligned, both
// pitches multiples of 16 bytes); otherwise they run the padded tile of
// unroll4 (tests check both paths).
bool vec16_path(const TransposeCall& call);

}  // namespace tessera::transpose_impl
