// tessera::spmv — sparse matrix times dense vector, y = alpha * A * x + beta * y,
// with A in CSR (compressed sparse row) form.
//
//   tessera::Csr<float> a{rows, cols, nnz, d_row_offsets, d_col_indices, d_values};
//   tessera::spmv(a, d_x, d_y);                                      // y = A x, the policy's variant
//   tessera::spmv(a, d_x, d_y, {.alpha = 2, .beta = 1});             // y = 2 A x + y
//   tessera::spmv(a, d_x, d_y, {.variant = "csr_vector"});           // any ladder rung by name
//   tessera::spmv(a, d_x, d_y, {.validate_structure = true});        // check offsets and columns first
//
// Types: float and double values; 32-bit column indices; 64-bit row offsets
// (rows + 1 of them, row_offsets[0] == 0, non-decreasing, row_offsets[rows]
// == nnz). Duplicate (row, col) entries are allowed: every tessera variant
// sums them (nnz may exceed rows * cols). The vendor baseline cusparse_spmv
// refuses such a matrix (cuSPARSE requires nnz <= rows * cols): asked by
// name it throws tessera::Error, and the harness reports it as not run.
// With beta == 0, y is not read (it may hold NaN); otherwise it is read once.
// x has cols elements, y rows elements, and they must not overlap.
//
// GPU variants (every variant without the cpu_ prefix) take device or managed
// pointers; the cpu_ variants, reachable by name, take host pointers. The
// CSR variants (the default among them) run on the arrays as given. The
// format variants convert the matrix first, every call, and synchronise:
// coo_*, ell and hyb on the GPU, jds, jds_ell_sections and sell_c_sigma on
// the host (the arrays copied down, converted, copied up). They are there
// to be compared; docs/spmv.md says what each conversion costs.
//
// Errors throw tessera::Error before anything is written to y:
//   always (O(1), no pass over the data): negative sizes, cols past 2^31,
//     a null pointer where the size needs data (row_offsets when rows > 0,
//     col_indices and values when nnz > 0, x when cols > 0, y when rows > 0),
//     x and y overlapping, host/device pointers that do not match the
//     variant, an unknown variant, a workspace too small;
//   with options.validate_structure (one pass over row offsets and column
//     indices; on the GPU a kernel and a synchronisation): row_offsets[0] != 0,
//     offsets that decrease, row_offsets[rows] != nnz, a column index outside
//     [0, cols) — the message names the array and the first bad index.
// Without validate_structure a malformed matrix is undefined behaviour (out
// of range reads), as in every sparse library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

// A CSR matrix the caller owns (pointers are not copied from).
template <class T>
struct Csr {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  const std::int64_t* row_offsets = nullptr;  // rows + 1
  const std::int32_t* col_indices = nullptr;  // nnz
  const T* values = nullptr;                  // nnz
};

struct SpmvOptions {
  double alpha = 1.0;               // rounded to T
  double beta = 0.0;                // rounded to T; 0: y is written only
  bool validate_structure = false;  // one pass over offsets and columns first (see above)
  std::string variant = {};         // empty: the variant the policy picks
  stream_t stream = nullptr;
  Workspace workspace = {};         // optional scratch of spmv_workspace_bytes(a, options) bytes
};

// Asynchronous on options.stream for the CSR GPU variants; the format
// variants and validate_structure synchronise the stream.
template <class T>
void spmv(const Csr<T>& a, const T* x, T* y, const SpmvOptions& options = {});

// Scratch bytes spmv needs for this matrix shape and these options (the
// variant they pick or name): a workspace this large makes the CSR variants
// allocate nothing. Throws for what spmv rejects (unknown variant).
template <class T>
std::size_t spmv_workspace_bytes(const Csr<T>& a, const SpmvOptions& options = {});

// The name of the variant the public API picks for these arguments.
std::string spmv_default_variant(Dtype type, std::int64_t rows, std::int64_t cols, std::int64_t nnz);

}  // namespace tessera
