// The expected answer of one GEMM problem and the check of a result against
// it (used by problem.cpp; separate so that tests can feed it wrong
// answers).
//
// Tolerance. Every element is a dot product of length K rounded in FP32:
// whatever the summation order (sequential FMA chains, split-K trees, the
// vendor's), the rounding error of a K-term float dot product is bounded by
// gamma_K * sum_k |a_ik| |b_kj|, with gamma_n = n u / (1 - n u), u = 2^-24
// (Higham, Accuracy and Stability, 3.1). Scaling by alpha, adding beta * C
// and the final rounding add two more roundings, so
//
//   |c_ij - ref_ij| <= gamma_{K+2} * (|alpha| sum_k |a_ik| |b_kj| + |beta| |c0_ij|)
//
// with ref computed in double (its own error, ~K 2^-53, is negligible). The
// check is written !(err <= tol): a NaN fails. The reported max_rel_err is
// max err / (|alpha| sum|a||b| + |beta| |c0|): the error in units of the
// scale, to compare with gamma_{K+2} (2.4e-4 at K = 4096).
//
// Coverage. Up to FULL_REFERENCE_MACS multiply-adds every element of C is
// computed in double and compared. Past it (the large bench sizes, where a
// double reference would take minutes) the check is:
//   - every element written and finite (outputs start as NaN, C's padding
//     columns must keep their poison bytes);
//   - every row sum and every column sum of C against checksums computed in
//     double in O(mk + kn): sum_j C_ij = alpha A_i . (B 1) + beta sum_j C0_ij,
//     sum_i C_ij = alpha (1^T A) . B_j + beta sum_i C0_ij, each within the
//     sum of the element tolerances of that row/column (for a lower-triangle
//     result, the row sums over j <= i: prefix sums of the rows of A);
//   - SAMPLED_ROWS full rows and SAMPLED_COLS full columns (the first two,
//     the middle, the last two and seeded random ones) and SAMPLED_ENTRIES
//     random entries computed in double.
// Every kernel is also checked element by element at the verify sizes, which
// include all tile-boundary cases. Transposed operands (op = T) are copied
// untransposed once, and everything above runs on op(A) and op(B).
#pragma once

#include <cstdint>
#include <vector>

#include "core/matrix_layout.hpp"
#include "harness/check.hpp"
#include "families/gemm/contract.hpp"

namespace tessera::harness::gemm {

inline constexpr std::uint64_t FULL_REFERENCE_MACS = std::uint64_t(1) << 32;
inline constexpr int SAMPLED_ROWS = 16;
inline constexpr int SAMPLED_COLS = 16;
inline constexpr int SAMPLED_ENTRIES = 8192;

// The byte of every padding element of C (columns n .. ldc-1) and of the
// poison written before a run with beta == 0: 0xFFFFFFFF is a NaN no
// arithmetic produces (the GPU's canonical NaN is 0x7fffffff).
inline constexpr int POISON_BYTE = 0xFF;

// Host copy of a problem's inputs, row-major with padding (harness/matrix.hpp:
// the padding columns of A and B hold INPUT_PAD_BYTE bytes, a float of
// ~1.5e16, so a kernel that reads past k or n into them fails the check).
struct Inputs {
  gemm_impl::GemmSpec spec;
  float alpha = 1, beta = 0;
  std::vector<float> a;   // stored_a(spec): rows * lda (at least 1)
  std::vector<float> b;   // stored_b(spec): rows * ldb (ab; at least 1)
  std::vector<float> c0;  // m * ldc: the initial C when beta != 0 (padding: POISON_BYTE); empty otherwise

  MatrixLayout layout_c() const { return {spec.m, spec.n, spec.ldc}; }
};

// The stored (row-major) A and B of a spec: A is m x k, or k x m when
// op(A) = T; B k x n, or n x k when op(B) = T.
inline MatrixLayout stored_a(const gemm_impl::GemmSpec& s) { return {s.ta ? s.k : s.m, s.ta ? s.m : s.k, s.lda}; }
inline MatrixLayout stored_b(const gemm_impl::GemmSpec& s) { return {s.tb ? s.n : s.k, s.tb ? s.k : s.n, s.ldb}; }

// u = 2^-24; gamma_n = n u / (1 - n u).
double gamma_k(std::uint64_t n);

class Expected {
 public:
  // `sample_seed` picks the sampled rows, columns and entries.
  Expected(const Inputs& in, std::uint64_t sample_seed);

  bool full() const { return full_; }
  // `got`: m * ldc floats as the variant left them.
  CheckResult compare(const float* got, gemm_impl::Fill fill) const;

 private:
  struct Entry {
    std::size_t i, j;
    double ref, scale;
  };
  void compute_full(const Inputs& in);
  void compute_sampled(const Inputs& in, std::uint64_t seed);
  void compute_checksums(const Inputs& in);

  gemm_impl::GemmSpec spec_;
  float alpha_, beta_;
  double gamma_;
  bool full_;
  std::vector<double> ref_, scale_;  // full: m * n
  std::vector<Entry> samples_;       // sampled
  // sampled: row sums over all j, over j <= i (aat), column sums; each with its scale
  std::vector<double> row_ref_, row_scale_, lower_ref_, lower_scale_, col_ref_, col_scale_;
};

}  // namespace tessera::harness::gemm
