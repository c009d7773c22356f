// GEMM step 0: the serial CPU reference (seed 000 "GEMM C=AB", Simple C Code),
// in double. A*B walks i, k, j so that B is read along its rows (the i, j, k
// order of the seed reads B down a column: a cache miss per element); a
// transposed operand (op = T) is read through its stored rows, whatever the
// stride: this is the check's truth, not a fast path. A*A^T is the dot
// product of rows i and j of A, both contiguous.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "families/gemm/cpu_rungs.hpp"

namespace tessera::gemm_impl::cpu {

namespace {

float finish(double dot, float alpha, float beta, float c_old) {
  const double scaled = double(alpha) * dot;
  return static_cast<float>(beta == 0.0f ? scaled : scaled + double(beta) * double(c_old));
}

void reference_ab(const GemmCall& call) {
  const auto& s = call.spec;
  // Element (i, p) of op(A) and (p, j) of op(B) in their row-major storage.
  const std::size_t a_row = s.ta ? 1 : s.lda, a_col = s.ta ? s.lda : 1;
  const std::size_t b_row = s.tb ? 1 : s.ldb, b_col = s.tb ? s.ldb : 1;
  std::vector<double> row(s.n);
  for (std::size_t i = 0; i < s.m; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (std::size_t k = 0; k < s.k; ++k) {
      const double a = call.a[i * a_row + k * a_col];
      const float* b = call.b + k * b_row;
      for (std::size_t j = 0; j < s.n; ++j) row[j] += a * double(b[j * b_col]);
    }
    float* c = call.c + i * s.ldc;
    for (std::size_t j = 0; j < s.n; ++j) c[j] = finish(row[j], call.alpha, call.beta, c[j]);
  }
}

void reference_aat(const GemmCall& call) {
  const auto& s = call.spec;
  for (std::size_t i = 0; i < s.m; ++i) {
    const float* ai = call.a + i * s.lda;
    float* c = call.c + i * s.ldc;
    for (std::size_t j = 0; j < s.m; ++j) {
      const float* aj = call.a + j * s.lda;
      double dot = 0;
      for (std::size_t k = 0; k < s.k; ++k) dot += double(ai[k]) * double(aj[k]);
      c[j] = finish(dot, call.alpha, call.beta, c[j]);
    }
  }
}

}  // namespace

void run_reference(const GemmCall& call) {
  if (call.spec.op == GemmOp::ab) reference_ab(call);
  else reference_aat(call);
}

}  // namespace tessera::gemm_impl::cpu
