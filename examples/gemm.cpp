// C = A·B (row-major, FP32), then C = A·Aᵀ.
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

  double c01 = 0, s01 = 0;
  for (std::size_t p = 0; p < k; ++p) c01 += double(a[p]) * b[p * n + 1], s01 += double(a[p]) * a[k + p];
  example::expect(std::abs(C.host()[1] - c01) < 1e-3, "C[0][1]");
  example::expect(std::abs(S.host()[1] - s01) < 1e-3 && S.host()[m] == S.host()[1], "S[0][1] == S[1][0]");
  std::printf("gemm: C[0][1] = %g, (A·Aᵀ)[0][1] = %g\n", C.host()[1], S.host()[1]);
}
