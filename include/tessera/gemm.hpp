// tessera::gemm — C = alpha * op(A) * op(B) + beta * C, FP32; op(X) = X or
// X^T (BLAS's N / T), row-major (default) or column-major storage.
// tessera::gemm_aat — C = alpha * A * A^T + beta * C (A m x k, C m x m).
//
//   tessera::gemm(d_A, d_B, m, n, k, d_C);                                   // dense, best variant
//   tessera::gemm(d_A, d_B, m, n, k, d_C, {.alpha = 2, .beta = 1, .ldc = ldc, .stream = s});
//   tessera::gemm(d_A, d_B, m, n, k, d_C, {.op_a = tessera::Trans::t});      // C = A^T B, A stored k x m
//   tessera::gemm(d_A, d_B, m, n, k, d_C, {.variant = "tiled_32"});          // any rung by name
//   tessera::gemm_aat(d_A, m, k, d_C);                                       // symmetric C, both triangles
//
// op(A) is m x k and op(B) k x n. Leading dimensions keep their meaning per
// stored matrix: the distance in elements between consecutive stored rows
// (row-major) or columns (column-major), at least the stored length of one:
//   row-major:    element (i, j) of a stored X is X[i * ldx + j]; A is stored
//                 m x k (op_a = n) or k x m (t): lda >= max(1, k) or max(1, m);
//                 B k x n or n x k: ldb >= max(1, n) or max(1, k);
//                 C m x n: ldc >= max(1, n).
//   column-major: element (i, j) is X[i + j * ldx] (BLAS): lda >= max(1, m)
//                 (n) or max(1, k) (t); ldb >= max(1, k) or max(1, n);
//                 ldc >= max(1, m).
// A leading dimension of 0 (the default) means dense. The BLAS call
//   cublasSgemm(handle, opA, opB, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc)
// with opA = CUBLAS_OP_T, opB = CUBLAS_OP_N (say) is
//   tessera::gemm(A, B, m, n, k, C, {.alpha = alpha, .beta = beta, .op_a = tessera::Trans::t,
//                 .op_b = tessera::Trans::n, .layout = tessera::Layout::col_major,
//                 .lda = lda, .ldb = ldb, .ldc = ldc});
// Column-major runs as the row-major C^T = op(B)^T op(A)^T (operands
// swapped, ops kept), and transposed operands are read in place: nothing is
// copied. gemm_aat takes the defaults only (N, N, row-major); it has no B
// and takes no ldb (ldc >= max(1, m)). Any m, n, k, zero included (m == 0
// or n == 0: nothing to do; k == 0: C = beta * C). Arithmetic and accumulation in FP32
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
// gemm_workspace_bytes(...): then the call allocates nothing. (warp_tiled
// needs scratch where it splits k: one m x n FP32 partial per k slice, added
// in a fixed order, so results are the same run to run.) The cpu_
// variants, reachable by name, take host pointers and run synchronously
// after synchronising the stream.
//
// Errors (a leading dimension smaller than a stored row or column, a null
// pointer for a non-empty matrix, C overlapping A or B, a host pointer for a
// GPU variant, an unknown variant or one that computes the other product, a
// taught rung asked for a transposed operand (steps 2-9 compute N,N only),
// options gemm_aat does not take, sizes a variant cannot handle, a workspace
// too small, a failed allocation) throw tessera::Error naming the argument
// and value, before anything is written to C.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

// op(X): X as stored (n) or its transpose (t), as BLAS's N and T.
enum class Trans { n, t };
// Storage order of all three matrices.
enum class Layout { row_major, col_major };

struct GemmOptions {
  float alpha = 1.0f;
  float beta = 0.0f;     // 0: C is not read
  Trans op_a = Trans::n;  // gemm only
  Trans op_b = Trans::n;  // gemm only
  Layout layout = Layout::row_major;  // gemm only
  std::size_t lda = 0;   // leading dimensions in elements (per stored matrix); 0: dense
  std::size_t ldb = 0;   // gemm only
  std::size_t ldc = 0;
  std::string variant = {};  // empty: the variant the policy picks (gemm_default_variant)
  stream_t stream = nullptr;
  Workspace workspace = {};
};

void gemm(const float* A, const float* B, std::size_t m, std::size_t n, std::size_t k, float* C,
          const GemmOptions& options = {});

void gemm_aat(const float* A, std::size_t m, std::size_t k, float* C, const GemmOptions& options = {});

// The scratch bytes the call with these sizes and options needs (32 MiB for
// the cuBLAS variants; for warp_tiled, splits * m * n * 4 where its policy
// splits k on this device, else 0; 0 for the other tessera variants).
std::size_t gemm_workspace_bytes(std::size_t m, std::size_t n, std::size_t k, const GemmOptions& options = {});
std::size_t gemm_aat_workspace_bytes(std::size_t m, std::size_t k, const GemmOptions& options = {});

// The names of the variants the API picks for these sizes.
std::string gemm_default_variant(std::size_t m, std::size_t n, std::size_t k);
std::string gemm_aat_default_variant(std::size_t m, std::size_t k);

}  // namespace tessera
