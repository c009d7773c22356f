// The GEMM pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// GemmVariant; the public API and the harness only go through this table.
//
// Two products share the pattern, each with its own ladder:
//   ab   C = alpha * op(A) * op(B) + beta * C (op(A) m x k, op(B) k x n, C m x n)
//   aat  C = alpha * A * A^T + beta * C        (A m x k, C m x m; n == m, no B)
// op(X) is X (ta / tb false: "N") or X^T (true: "T"). All matrices are
// row-major with leading dimensions (the distance in elements between the
// starts of consecutive stored rows): A is stored m x k (N) or k x m (T),
// element (i, p) of op(A) at a[i * lda + p] or a[p * lda + i]; B likewise
// k x n or n x k. The public API maps column-major calls onto this (C^T =
// op(B)^T op(A)^T: operands swapped, ops kept). FP32 data, FP32 (or wider)
// accumulation. beta == 0 means C is not read (BLAS semantics: NaN in C does
// not propagate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "tessera/core/types.hpp"
#include "ladder/ladder.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::gemm_impl {

enum class GemmOp { ab, aat };

std::string_view to_string(GemmOp op) noexcept;  // "ab", "aat"

// What is being computed (everything but the data).
struct GemmSpec {
  GemmOp op;
  std::size_t m, n, k;       // aat: n == m
  std::size_t lda, ldb, ldc; // aat: ldb unused
  bool ta = false, tb = false;  // op(A), op(B) = T (ab only)
};

// "NN", "TN", "NT", "TT": op(A) then op(B).
inline const char* ops_name(const GemmSpec& s) {
  static constexpr const char* NAMES[] = {"NN", "NT", "TN", "TT"};
  return NAMES[2 * int(s.ta) + int(s.tb)];
}

// One call. Device pointers for CUDA variants, host pointers for CPU
// variants; `workspace` holds workspace_bytes(spec) bytes of the same memory
// kind (contents undefined). A CUDA run only enqueues work on `stream`: no
// allocation, no host synchronisation (graph-capturable).
struct GemmCall {
  GemmSpec spec;
  float alpha, beta;
  const float* a;
  const float* b;  // aat: nullptr
  float* c;
  void* workspace;
  stream_t stream;
};

// What a variant writes of C. Every tessera rung writes all of C; the vendor
// SYRK writes the lower triangle (i >= j) only, and the public API mirrors it.
enum class Fill { full, lower };

struct GemmVariant {
  VariantInfo info;
  Fill fill;
  // Harness only: the largest m*n*k (multiply-adds) the verify and bench runs
  // give this rung, because beyond it one run takes seconds (the slow rungs'
  // predicted times are in docs/gemm.md); 0 = no limit. The API ignores it.
  std::uint64_t harness_max_macs;
  bool (*supports)(const GemmSpec&);  // the op (ab / aat) included
  std::size_t (*workspace_bytes)(const GemmSpec&);
  void (*run)(const GemmCall&);
};

// The ladder: the table of ladder.cpp in step order (the lab build adds its
// tuning rows to it).
ladder::Ladder<GemmVariant>& variants_ladder();

// Helpers shared by the table and the lab's rows.
inline std::size_t no_workspace(const GemmSpec&) { return 0; }
inline bool is_ab(const GemmSpec& s) { return s.op == GemmOp::ab; }
// The rungs that compute op(A), op(B) = N,N only (the taught steps).
inline bool is_ab_nn(const GemmSpec& s) { return s.op == GemmOp::ab && !s.ta && !s.tb; }
inline bool is_aat(const GemmSpec& s) { return s.op == GemmOp::aat; }

}  // namespace tessera::gemm_impl
