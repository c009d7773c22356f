// Dense row-major matrices in the harness, for every dense pattern
// (transpose, GEMM): labels, seeded inputs whose pitch padding is marked,
// poison bytes, and element-by-element checks of a whole output matrix —
// bitwise for data movement, with a tolerance for arithmetic — that also
// check that the pitch padding of the output was left alone.
//
// All of it works on host memory, is parallel (OpenMP) and handles matrices
// past 2^31 elements. Layouts are MatrixLayout (src/common/matrix_layout.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/matrix_layout.hpp"
#include "harness/check.hpp"
#include "harness/generate.hpp"
#include "tessera/core/types.hpp"

namespace tessera::harness {

// The byte written to the pitch padding of generated inputs: a variant that
// copies padding into its output is caught by the output's padding check.
inline constexpr int INPUT_PAD_BYTE = 0x5A;

// "5000x3001", or "5000x3001 ld 3008" when the rows are pitched.
std::string matrix_label(const MatrixLayout& m);

// Fills the rows * ld elements of `data` (host memory, element type `type`):
// the logical elements with the seeded generator (element (i, j) is element
// i * ld + j of fill_random's stream), the padding columns cols..ld-1 of
// every row with INPUT_PAD_BYTE bytes.
void fill_matrix(void* data, Dtype type, const MatrixLayout& m, std::uint64_t seed, Distribution dist);

// A byte b such that no logical element of the matrix is b repeated, so that
// an output element still holding b after a run was never written. Tries
// 0xFF first (a NaN for float and double, never generated) and a few others.
int poison_byte_for(const void* data, Dtype type, const MatrixLayout& m);

// Where the expected value of output element (i, j) lives: element
// data[i * row_stride + j * col_stride] (strides in elements, same type as
// the output). A row-major matrix of layout m is {data, m.ld, 1}; its
// transpose is {data, 1, m.ld}.
struct StridedMatrix {
  const void* data = nullptr;
  std::size_t row_stride = 0;
  std::size_t col_stride = 0;
};
inline StridedMatrix as_rows(const void* data, const MatrixLayout& m) { return {data, m.ld, 1}; }
inline StridedMatrix as_transpose(const void* data, const MatrixLayout& m) { return {data, 1, m.ld}; }

// Bitwise check of data movement: every logical element of `got` (layout g,
// g.rows * g.ld elements) must equal the expected element bit for bit, and
// every padding element (columns g.cols..g.ld-1) must still be `poison`
// bytes. max_rel_err is 0 when it passes; on failure the detail gives the
// number of wrong elements and the first one (row, column, got, expected).
CheckResult check_matrix_exact(const void* got, const MatrixLayout& g, Dtype type, const StridedMatrix& expected,
                               int poison);

// Tolerance for arithmetic results: element (i, j) passes when
//   |got - ref| <= abs + rel * scale(i, j)
// with scale(i, j) = scale[i * cols + j] when `scale` is given (e.g. the
// dense matrix of (|A|·|B|)(i, j) for a GEMM), |ref(i, j)| otherwise.
// Written as !(err <= tol): NaN fails.
struct CloseTolerance {
  double rel = 0;
  double abs = 0;
  const double* scale = nullptr;  // dense rows x cols, or nullptr
};

// Float/double output `got` (layout g) against a dense rows x cols reference
// in double, element by element with `tol`; padding must still be `poison`
// bytes. max_rel_err: the largest |got - ref| / |ref| (|got - ref| where
// ref == 0) over the logical elements.
CheckResult check_matrix_close(const void* got, const MatrixLayout& g, Dtype type, const double* ref,
                               const CloseTolerance& tol, int poison);

// Only the padding: columns cols..ld-1 of every row hold `poison` bytes.
CheckResult check_matrix_padding(const void* got, const MatrixLayout& g, std::size_t elem_bytes, int poison);

}  // namespace tessera::harness
