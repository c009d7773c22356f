// tessera::spmv — sparse matrix times dense vector, y = alpha * A * x + beta * y,
// with A in CSR (compressed sparse row) form.
//
//   tessera::Csr<float> a{rows, cols, nnz, d_row_offsets, d_col_indices, d_values};
//   tessera::spmv(a, d_x, d_y);                                      // y = A x, the policy's variant
//   tessera::spmv(a, d_x, d_y, {.alpha = 2, .beta = 1});             // y = 2 A x + y
//   tessera::spmv(a, d_x, d_y, {.variant = "csr_vector"});           // any ladder rung by name
//   tessera::spmv(a, d_x, d_y, {.validate_structure = true});        // check offsets and columns first
//   auto plan = tessera::spmv_plan(a);  tessera::spmv(plan, d_x, d_y);   // convert once, multiply many times
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
// format variants convert the matrix first (on the GPU) and synchronise:
// through spmv(a, ...) on every call, through a plan (SpmvPlan, below) once.
// docs/spmv.md says what each conversion and each plan costs.
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
#include <memory>
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

// ---- Plans: convert once, multiply many times.
//
//   auto plan = tessera::spmv_plan(a);                 // reads the row lengths, picks, converts (synchronises)
//   for (...) tessera::spmv(plan, d_x, d_y);           // only the SpMV, asynchronous on options.stream
//   plan.variant(); plan.footprint_bytes();            // what it picked, what it holds
//
// A plan reads the row-length histogram once (a pass over the offsets and a
// synchronisation) and, unless options.variant names one, picks by the
// statistics (mean, coefficient of variation, max; policy.hpp's plan rules,
// docs/spmv.md): short rows -> csr_scalar_guarded, regular rows -> jds,
// irregular -> csr_nnz_split; on host arrays (GPU present or not) the CPU
// variants. A format variant (jds, sell_c_sigma, ell, hyb,
// coo_*, jds_ell_sections, cusparse_spmv's descriptors) is converted here,
// once, into device memory the plan owns and frees in its destructor
// (footprint_bytes(): the format's bytes; 0 for CSR variants, which run on
// the caller's arrays). The caller's CSR arrays must outlive the plan and
// keep their contents (CSR variants read them on every call); destroy the
// plan only after the work enqueued with it has finished. With
// options.validate_structure the plan checks the structure once, here.
// The options given to spmv(plan, ...) supply alpha, beta, stream and
// workspace; their variant must be empty or the plan's own.
struct SpmvRowStats {
  std::int64_t rows = 0, nnz = 0;
  std::int64_t max_length = 0;  // the longest row
  std::int64_t empty_rows = 0;
  double mean = 0;              // nnz / rows
  double cv = 0;                // coefficient of variation of the row lengths (stddev / mean)
};

namespace spmv_impl {
struct PlanState;
}

template <class T>
class SpmvPlan {
 public:
  explicit SpmvPlan(const Csr<T>& a, const SpmvOptions& options = {});
  ~SpmvPlan();
  SpmvPlan(SpmvPlan&&) noexcept;
  SpmvPlan& operator=(SpmvPlan&&) noexcept;
  SpmvPlan(const SpmvPlan&) = delete;
  SpmvPlan& operator=(const SpmvPlan&) = delete;

  const Csr<T>& matrix() const { return matrix_; }
  const std::string& variant() const;     // the rung it runs
  const std::string& reason() const;      // the policy rule's evidence (or "named in options.variant")
  const SpmvRowStats& row_stats() const;
  std::size_t footprint_bytes() const;    // bytes the plan owns (the converted format), beyond the caller's CSR
  double prepare_ms() const;              // the statistics and the conversion, wall clock
  const spmv_impl::PlanState& state() const { return *state_; }

 private:
  Csr<T> matrix_;
  std::unique_ptr<spmv_impl::PlanState> state_;
};

template <class T>
SpmvPlan<T> spmv_plan(const Csr<T>& a, const SpmvOptions& options = {}) {
  return SpmvPlan<T>(a, options);
}

template <class T>
void spmv(const SpmvPlan<T>& plan, const T* x, T* y, const SpmvOptions& options = {});

// The row-length statistics of a host CSR matrix (one pass over the
// offsets), and the variant a plan would pick for a matrix of `cols` columns
// with these statistics on a GPU (gpu = true) or without one.
template <class T>
SpmvRowStats spmv_row_stats_host(const Csr<T>& a);
std::string spmv_plan_variant(Dtype type, std::int64_t cols, const SpmvRowStats& stats, bool gpu);

// ---- Batched SpMV: many independent CSR matrices, each with its own x and
// y, in one call (y_b = alpha * A_b * x_b + beta * y_b for every b).
//
// The batch is each matrix's own CSR arrays laid end to end, plus three
// prefix sums (count + 1 each, first 0, non-decreasing) saying where matrix
// b's pieces start:
//   row_starts[b]  its rows in y:           y[row_starts[b] .. row_starts[b + 1])
//   col_starts[b]  its columns in x:        x[col_starts[b] .. col_starts[b + 1])
//   nnz_starts[b]  its entries:             col_indices / values[nnz_starts[b] .. nnz_starts[b + 1])
// row_offsets holds every matrix's own offsets array (rows_b + 1 of them,
// from 0 to nnz_b) one after the other: matrix b's at row_offsets +
// row_starts[b] + b, total_rows + count entries. Column indices are the
// matrix's own, in [0, cols_b). So a batch is built by concatenating the
// matrices' arrays unchanged and one exclusive scan of their rows, cols
// and nnz:
//
//   // host: matrices m[0..n) of Csr<float>; device copies of the arrays below
//   std::vector<std::int64_t> rs{0}, cs{0}, ns{0}, offsets;
//   for (auto& a : m) { rs.push_back(rs.back() + a.rows); cs.push_back(cs.back() + a.cols);
//                       ns.push_back(ns.back() + a.nnz);
//                       offsets.insert(offsets.end(), a.row_offsets, a.row_offsets + a.rows + 1); }
//   tessera::CsrBatch<float> b{n, rs.back(), cs.back(), ns.back(), d_rs, d_cs, d_ns, d_offsets, d_cols, d_vals};
//   tessera::spmv_batched(b, d_x, d_y);                              // all n products, one launch
//
// The totals (rows, cols, nnz) must equal the starts' last elements; they
// let the O(1) checks run without reading device memory. Variants:
// batched_nnz_split (the GPU default: the whole batch's nonzeros in equal
// tiles, a tile's rows crossing matrix boundaries freely; deterministic),
// cusparse_loop (the vendor baseline: one cusparseSpMV per matrix; builds
// count descriptors every call through this API, so it is for comparison),
// cpu_reference (host pointers). Errors (tessera::Error naming the argument)
// as for spmv: negative sizes, null pointers where a size needs data, x and
// y overlapping, an unknown variant, a small workspace; with
// validate_structure (copies the arrays to the host for GPU variants, and
// synchronises): starts not starting at 0, decreasing, or not ending at the
// totals, each matrix's offsets and columns as spmv checks them.
template <class T>
struct CsrBatch {
  std::int64_t count = 0;
  std::int64_t rows = 0, cols = 0, nnz = 0;   // totals: row_starts[count], col_starts[count], nnz_starts[count]
  const std::int64_t* row_starts = nullptr;   // count + 1
  const std::int64_t* col_starts = nullptr;   // count + 1
  const std::int64_t* nnz_starts = nullptr;   // count + 1
  const std::int64_t* row_offsets = nullptr;  // rows + count: each matrix's own offsets, from 0
  const std::int32_t* col_indices = nullptr;  // nnz, each matrix's own columns
  const T* values = nullptr;                  // nnz
};

// Asynchronous on options.stream for batched_nnz_split; alpha, beta,
// validate_structure, variant, stream and workspace as for spmv.
template <class T>
void spmv_batched(const CsrBatch<T>& batch, const T* x, T* y, const SpmvOptions& options = {});

// Scratch bytes spmv_batched needs (batched_nnz_split: the batch's offsets
// made global, (rows + 1) * 8 B, and 4 values a tile of 1024 nonzeros).
template <class T>
std::size_t spmv_batched_workspace_bytes(const CsrBatch<T>& batch, const SpmvOptions& options = {});

}  // namespace tessera
