// tessera::gemm — C = alpha * A * B + beta * C, FP32, row-major.
// tessera::gemm_aat — C = alpha * A * A^T + beta * C (A m x k, C m x m).
//
//   tessera::gemm(m, n, k, 1.0f, d_A, k, d_B, n, 0.0f, d_C, n);                 // best variant
//   tessera::gemm(m, n, k, a, d_A, lda, d_B, ldb, b, d_C, ldc, {.stream = s});  // async on s
//   tessera::gemm(m, n, k, 1, d_A, k, d_B, n, 0, d_C, n, {.variant = "tiled_32"}); // any rung by name
//   tessera::gemm_aat(m, k, 1.0f, d_A, k, 0.0f, d_C, m);                        // symmetric C, both triangles
//
// Row-major storage with leading dimensions: element (i, j) of A is
// A[i * lda + j]; lda >= max(1, k), ldb >= max(1, n), ldc >= max(1, n) (for
// gemm_aat ldc >= max(1, m)). Any m, n, k, zero included (m == 0 or n == 0:
// nothing to do; k == 0: C = beta * C). Arithmetic and accumulation in FP32
// (the CPU reference rung accumulates in double); the error of each element
// is within gamma_{k+2} (|alpha| sum_k |a_ik||b_kj| + |beta| |c_ij|),
// gamma_n = n 2^-24 / (1 - n 2^-24), for every variant (docs/gemm.md).
// beta == 0: C is only written, never read (NaN in C does not propagate).
// gemm_aat writes the whole symmetric C (every variant, the vendor SYRK
// included: its lower triangle is mirrored), and tessera's variants make it
// exactly symmetric.
//
// GPU variants (every variant without the cpu_ prefix) take device (or
// managed) pointers and only enqueue work on options.stream: the call
// returns before the product is done, and it can be captured in a CUDA graph
// once each variant has run once (the vendor variants' first call creates a
// cuBLAS handle; variants that need a workspace allocate it stream-ordered).
// The cpu_ variants, reachable by name, take host pointers and run
// synchronously after synchronising the stream.
//
// Errors (a leading dimension smaller than a row, a null pointer for a
// non-empty matrix, C overlapping A or B, a host pointer for a GPU variant,
// an unknown variant or one that computes the other product, sizes a variant
// cannot handle, a failed allocation) throw tessera::Error naming the
// argument and value, before anything is written to C.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/types.hpp"

namespace tessera {

struct GemmOptions {
  std::string variant = {};  // empty: the best variant for these sizes
  stream_t stream = nullptr;
};

void gemm(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* A, std::size_t lda, const float* B,
          std::size_t ldb, float beta, float* C, std::size_t ldc, const GemmOptions& options = {});

void gemm_aat(std::size_t m, std::size_t k, float alpha, const float* A, std::size_t lda, float beta, float* C,
              std::size_t ldc, const GemmOptions& options = {});

// The names of the variants the API picks for these sizes.
std::string gemm_default_variant(std::size_t m, std::size_t n, std::size_t k);
std::string gemm_aat_default_variant(std::size_t m, std::size_t k);

}  // namespace tessera
