// GEMM step 1: blocked OpenMP. Each task owns an MB x NB tile of C in a
// private float accumulator; for every KB-deep slab it packs the slab of the
// right operand (B, or A^T for A*A^T) into a contiguous KB x NB panel, so the
// innermost loop is a unit-stride axpy the compiler vectorises, and the panel
// (64 KiB) stays in L2 while the tile's rows stream past it. Accumulation is
// float in k order, as on the GPU. Transposed operands (op = T) are read in
// place: op(B) = B^T is packed from B's stored rows like A^T for A*A^T, and
// op(A) = A^T is read down its stored columns (one stride per k).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "families/gemm/cpu_rungs.hpp"

namespace tessera::gemm_impl::cpu {

namespace {

constexpr std::size_t MB = 64;   // tile rows: reuse of each packed panel
constexpr std::size_t NB = 128;  // tile columns: 512-byte rows, whole cache lines
constexpr std::size_t KB = 128;  // slab depth: panel KB x NB floats = 64 KiB

// panel[kk * NB + jj] = op(B)(k0 + kk, j0 + jj) for the slab and tile.
void pack_panel(const GemmCall& call, std::size_t k0, std::size_t kb, std::size_t j0, std::size_t nb, float* panel) {
  const auto& s = call.spec;
  if (s.op == GemmOp::ab && !s.tb) {
    for (std::size_t kk = 0; kk < kb; ++kk)
      std::copy_n(call.b + (k0 + kk) * s.ldb + j0, nb, panel + kk * NB);
  } else {  // rows j of the stored matrix hold column j of op(B): B^T, or A^T for A*A^T
    const float* src = s.op == GemmOp::ab ? call.b : call.a;
    const std::size_t ld = s.op == GemmOp::ab ? s.ldb : s.lda;
    for (std::size_t jj = 0; jj < nb; ++jj) {
      const float* row = src + (j0 + jj) * ld + k0;
      for (std::size_t kk = 0; kk < kb; ++kk) panel[kk * NB + jj] = row[kk];
    }
  }
}

}  // namespace

void run_openmp(const GemmCall& call) {
  const auto& s = call.spec;
  const std::size_t tiles_m = (s.m + MB - 1) / MB, tiles_n = (s.n + NB - 1) / NB;
  const auto tiles = static_cast<std::int64_t>(tiles_m * tiles_n);
  // Element (i, p) of op(A) at a[i * a_row + p * a_col].
  const bool ta = s.op == GemmOp::ab && s.ta;
  const std::size_t a_row = ta ? 1 : s.lda, a_col = ta ? s.lda : 1;
#pragma omp parallel
  {
    std::vector<float> acc(MB * NB), panel(KB * NB);
#pragma omp for schedule(dynamic)
    for (std::int64_t t = 0; t < tiles; ++t) {
      const std::size_t i0 = std::size_t(t) / tiles_n * MB, j0 = std::size_t(t) % tiles_n * NB;
      const std::size_t mb = std::min(MB, s.m - i0), nb = std::min(NB, s.n - j0);
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (std::size_t k0 = 0; k0 < s.k; k0 += KB) {
        const std::size_t kb = std::min(KB, s.k - k0);
        pack_panel(call, k0, kb, j0, nb, panel.data());
        for (std::size_t ii = 0; ii < mb; ++ii) {
          const float* a = call.a + (i0 + ii) * a_row + k0 * a_col;
          float* row = acc.data() + ii * NB;
          for (std::size_t kk = 0; kk < kb; ++kk) {
            const float av = a[kk * a_col];
            const float* p = panel.data() + kk * NB;
            for (std::size_t jj = 0; jj < nb; ++jj) row[jj] += av * p[jj];
          }
        }
      }
      for (std::size_t ii = 0; ii < mb; ++ii) {
        float* c = call.c + (i0 + ii) * s.ldc + j0;
        const float* row = acc.data() + ii * NB;
        for (std::size_t jj = 0; jj < nb; ++jj)
          c[jj] = call.beta == 0.0f ? call.alpha * row[jj] : call.alpha * row[jj] + call.beta * c[jj];
      }
    }
  }
}

}  // namespace tessera::gemm_impl::cpu
