// tessera::gemm — C = alpha * A * B + beta * C, FP32, row-major.
// tessera::gemm_aat — C = alpha * A * A^T + beta * C (A m x k, C m x m).
//
//   tessera::gemm(d_A, d_B, m, n, k, d_C);                                   // dense, best variant
//   tessera::gemm(d_A, d_B, m, n, k, d_C, {.alpha = 2, .beta = 1, .ldc = ldc, .stream = s});
//   tessera::gemm(d_A, d_B, m, n, k, d_C, {.variant = "tiled_32"});          // any rung by name
//   tessera::gemm_aat(d_A, m, k, d_C);                                       // symmetric C, both triangles
//
// Row-major storage with leading dimensions: element (i, j) of A is
// A[i * lda + j]. A leading dimension of 0 (the default) means dense:
// max(1, columns). Given ones must hold a row: lda >= max(1, k),
// ldb >= max(1, n), ldc >= max(1, n) (gemm_aat: ldc >= max(1, m); it has no
// B and takes no ldb). Any m, n, k, zero included (m == 0 or n == 0:
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
// cuBLAS handle). Scratch memory (the vendor variants' cuBLAS workspace) is
// allocated stream-ordered, unless options.workspace holds at least
// gemm_workspace_bytes(...): then the call allocates nothing. The cpu_
// variants, reachable by name, take host pointers and run synchronously
// after synchronising the stream.
//
// Errors (a leading dimension smaller than a row, a null pointer for a
// non-empty matrix, C overlapping A or B, a host pointer for a GPU variant,
// an unknown variant or one that computes the other product, sizes a variant
// cannot handle, a workspace too small, a failed allocation) throw
// tessera::Error naming the argument and value, before anything is written
// to C.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct GemmOptions {
  float alpha = 1.0f;
  float beta = 0.0f;     // 0: C is not read
  std::size_t lda = 0;   // leading dimensions in elements; 0: dense
  std::size_t ldb = 0;   // gemm only
  std::size_t ldc = 0;
  std::string variant = {};  // empty: the variant the policy picks (gemm_default_variant)
  stream_t stream = nullptr;
  Workspace workspace = {};
};

void gemm(const float* A, const float* B, std::size_t m, std::size_t n, std::size_t k, float* C,
          const GemmOptions& options = {});

void gemm_aat(const float* A, std::size_t m, std::size_t k, float* C, const GemmOptions& options = {});

// The scratch bytes the call with these sizes and options needs (0 for
// tessera's own GPU variants, 32 MiB for the cuBLAS ones).
std::size_t gemm_workspace_bytes(std::size_t m, std::size_t n, std::size_t k, const GemmOptions& options = {});
std::size_t gemm_aat_workspace_bytes(std::size_t m, std::size_t k, const GemmOptions& options = {});

// The names of the variants the API picks for these sizes.
std::string gemm_default_variant(std::size_t m, std::size_t n, std::size_t k);
std::string gemm_aat_default_variant(std::size_t m, std::size_t k);

}  // namespace tessera
