// The CUDA rungs of the transpose ladder (steps 2-6) and the vendor baseline
// (step 8); ladder.cpp lists them. Each provides
//   run_X(call)  enqueue the transpose on call.stream (no allocation, no host
//                synchronisation: graph-capturable; nothing for an empty
//                matrix);
// every tessera rung supports the 4- and 8-byte element types (word_sized).
// Plain C++: no CUDA headers needed to include this.
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
// 06_block_shapes.cu: the seed's block shape and the H100's, TILE x BLOCK_ROWS
void run_tile16_16x16(const TransposeCall& call);
void run_tile64_64x8(const TransposeCall& call);

// 08_cublas_geam.cu: float and double only; prepare() creates the cuBLAS
// handle outside timed regions and graph captures.
void run_cublas_geam(const TransposeCall& call);
bool supports_cublas_geam(const TransposeSpec& spec);
void prepare_cublas_geam();

}  // namespace tessera::transpose_impl
