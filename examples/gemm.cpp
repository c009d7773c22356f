// C = A·B (row-major, FP32), C = A·Bᵀ as a column-major BLAS call would ask
// for it, then C = A·Aᵀ.
#include <tessera/gemm.hpp>

#include <cmath>
#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t m = 300, n = 200, k = 100;
  std::vector<float> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) - 3;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(i % 5) - 2;
  example::Array<float> A(a), B(b), C(m * n), S(m * m);

  tessera::gemm(A.data(), B.data(), m, n, k, C.data());
  tessera::gemm_aat(A.data(), m, k, S.data());

  // cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, A, lda = m, Bt, ldb = n, &zero, Cc, ldc = m):
  // column-major A (m x k) and Bt (n x k); the same call, in place, no copies.
  std::vector<float> a_col(m * k), bt_col(n * k);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) a_col[p * m + i] = a[i * k + p];
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t p = 0; p < k; ++p) bt_col[p * n + j] = b[p * n + j];  // Bt(j, p) = B(p, j)
  example::Array<float> Ac(a_col), Btc(bt_col), Cc(m * n);
  tessera::gemm(Ac.data(), Btc.data(), m, n, k, Cc.data(),
                {.op_b = tessera::Trans::t, .layout = tessera::Layout::col_major});

  double c01 = 0, s01 = 0;
  for (std::size_t p = 0; p < k; ++p) c01 += double(a[p]) * b[p * n + 1], s01 += double(a[p]) * a[k + p];
  example::expect(std::abs(C.host()[1] - c01) < 1e-3, "C[0][1]");
  example::expect(Cc.host()[1 * m + 0] == C.host()[1], "column-major C(0, 1) == row-major C[0][1]");
  example::expect(std::abs(S.host()[1] - s01) < 1e-3 && S.host()[m] == S.host()[1], "S[0][1] == S[1][0]");
  std::printf("gemm: C[0][1] = %g, (A·Aᵀ)[0][1] = %g\n", C.host()[1], S.host()[1]);
}
