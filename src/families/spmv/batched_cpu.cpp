// spmv_batched in every build: the CPU reference (a loop over the batch,
// each row's sum in a wider type, as spmv's cpu_reference), the argument and
// structure checks, and the variant table (the CUDA variants' functions are
// in 10_batched_nnz_split.cu and 09_cusparse_spmv.cu).
#include <type_traits>

#include <fmt/format.h>

#include "families/spmv/api_common.hpp"
#include "families/spmv/batched.hpp"
#include "ladder/ladder.hpp"

namespace tessera::spmv_impl::batched {

#if TESSERA_HAVE_CUDA
std::size_t ws_batched_nnz_split(const BatchSpec& s);
void run_batched_nnz_split(const BatchCall& c);
std::unique_ptr<BatchPlan> prepare_cusparse_loop(const BatchSpec& s, const BatchArrays& host,
                                                 const BatchArrays& device, stream_t stream);
void run_cusparse_loop(const BatchCall& c);
std::unique_ptr<BatchPlan> prepare_cusparse_strided(const BatchSpec& s, const BatchArrays& host,
                                                    const BatchArrays& device, stream_t stream);
void run_cusparse_strided(const BatchCall& c);
#endif

namespace {

template <class T>
void reference(const BatchCall& c) {
  using Acc = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  const BatchArrays& a = c.a;
  const T* val = static_cast<const T*>(a.values);
  const T* x = static_cast<const T*>(c.x);
  T* y = static_cast<T*>(c.y);
  for (std::int64_t b = 0; b < c.spec.count; ++b) {
    const std::int64_t* off = a.row_offsets + a.row_starts[b] + b;
    const std::int64_t rows = a.row_starts[b + 1] - a.row_starts[b];
    const T* xb = x + a.col_starts[b];
    T* yb = y + a.row_starts[b];
    const T* vb = val + a.nnz_starts[b];
    const std::int32_t* cb = a.col_indices + a.nnz_starts[b];
    for (std::int64_t r = 0; r < rows; ++r) {
      Acc sum = 0;
      for (std::int64_t k = off[r]; k < off[r + 1]; ++k) sum += Acc(vb[k]) * Acc(xb[cb[k]]);
      Acc out = Acc(c.alpha) * sum;
      if (c.beta != 0) out += Acc(c.beta) * Acc(yb[r]);  // beta == 0: y is not read
      yb[r] = T(out);
    }
  }
}

std::size_t no_workspace(const BatchSpec&) { return 0; }

using namespace ladder::roles;

}  // namespace

void run_cpu_reference(const BatchCall& c) {
  if (c.spec.dtype == Dtype::f64) reference<double>(c);
  else if (c.spec.dtype == Dtype::f32) reference<float>(c);
  else throw Error("spmv_batched: cpu_reference supports float and double values only");
}

static const ladder::Ladder<BatchVariant>& batch_ladder() {
  static const std::vector<BatchVariant> table = {
      {{"spmv_batched", "cpu_reference", 0, CPU, REFERENCE, "a serial loop over the matrices and their rows, each row's sum in double (float) or long double (double)", true}, no_workspace, nullptr, run_cpu_reference},
#if TESSERA_HAVE_CUDA
      {{"spmv_batched", "batched_nnz_split", 8, CUDA, PRODUCT, "csr_nnz_split over the whole batch in one launch: offsets made global, tiles of 1024 nonzeros crossing matrix boundaries, each nonzero's x found from its matrix (binary search only in tiles that cross); deterministic", true}, ws_batched_nnz_split, nullptr, run_batched_nnz_split},
      {{"spmv_batched", "cusparse_loop", 9, CUDA, VENDOR, "one cusparseSpMV (CSR, ALG_DEFAULT) per matrix, descriptors and one shared buffer prepared outside timing (vendor baseline)", false}, no_workspace, prepare_cusparse_loop, run_cusparse_loop},
      {{"spmv_batched", "cusparse_strided", 9, CUDA, VENDOR, "cuSPARSE's strided batch: one CSR descriptor with cusparseCsrSetStridedBatch, x and y as strided one-column dense matrices, one cusparseSpMM (cuSPARSE has no strided dense vector for SpMV); matrices of one shape only (vendor baseline for same-pattern batches)", false}, no_workspace, prepare_cusparse_strided, run_cusparse_strided},
#endif
  };
  static const ladder::Ladder<BatchVariant> batches{std::span<const BatchVariant>(table)};
  return batches;
}

std::span<const BatchVariant> variants() { return batch_ladder().all(); }

const BatchVariant& variant_named(std::string_view name, const char* who) { return batch_ladder().at(name, who); }

void check_arguments(const BatchSpec& s, const BatchArrays& a, const void* x, const void* y, const char* who) {
  require(s.count >= 0, fmt::format("{}: count = {} is negative", who, s.count));
  require(s.rows >= 0, fmt::format("{}: rows = {} is negative", who, s.rows));
  require(s.cols >= 0, fmt::format("{}: cols = {} is negative", who, s.cols));
  require(s.nnz >= 0, fmt::format("{}: nnz = {} is negative", who, s.nnz));
  require(s.count > 0 || (s.rows == 0 && s.cols == 0 && s.nnz == 0),
          fmt::format("{}: count = 0 but rows = {}, cols = {}, nnz = {}", who, s.rows, s.cols, s.nnz));
  const bool any = s.count > 0;
  require(a.row_starts != nullptr || !any, fmt::format("{}: row_starts is a null pointer but count = {}", who, s.count));
  require(a.col_starts != nullptr || !any, fmt::format("{}: col_starts is a null pointer but count = {}", who, s.count));
  require(a.nnz_starts != nullptr || !any, fmt::format("{}: nnz_starts is a null pointer but count = {}", who, s.count));
  require(a.row_offsets != nullptr || !any,
          fmt::format("{}: row_offsets is a null pointer but count = {}", who, s.count));
  check_entries_and_vectors(s.dtype, s.rows, s.cols, s.nnz, a.col_indices, a.values, x, y, who, "spmv_batched");
}

namespace {
void check_starts(const std::int64_t* starts, std::int64_t count, std::int64_t total, const char* name,
                  const char* total_name, const char* who) {
  require(starts[0] == 0, fmt::format("{}: {}[0] = {}, must be 0", who, name, starts[0]));
  for (std::int64_t b = 1; b <= count; ++b)
    if (starts[b] < starts[b - 1]) throw Error(fmt::format("{}: {}[{}] = {} is less than {}[{}] = {} (starts must not decrease)",
                                                    who, name, b, starts[b], name, b - 1, starts[b - 1]));
  require(starts[count] == total,
          fmt::format("{}: {}[{}] = {} must equal {} = {}", who, name, count, starts[count], total_name, total));
}
}  // namespace

void check_structure_host(const BatchSpec& s, const BatchArrays& a, const char* who) {
  if (s.count == 0) return;
  check_starts(a.row_starts, s.count, s.rows, "row_starts", "rows", who);
  check_starts(a.col_starts, s.count, s.cols, "col_starts", "cols", who);
  check_starts(a.nnz_starts, s.count, s.nnz, "nnz_starts", "nnz", who);
  for (std::int64_t b = 0; b < s.count; ++b) {
    const std::int64_t rows = a.row_starts[b + 1] - a.row_starts[b];
    const std::int64_t cols = a.col_starts[b + 1] - a.col_starts[b];
    const std::int64_t nnz = a.nnz_starts[b + 1] - a.nnz_starts[b];
    const std::int64_t first = a.row_starts[b] + b;
    const std::int64_t* off = a.row_offsets + first;
    require(off[0] == 0, fmt::format("{}: row_offsets[{}] = {} (matrix {}'s first offset) must be 0", who, first,
                                     off[0], b));
    for (std::int64_t r = 1; r <= rows; ++r)
      if (off[r] < off[r - 1]) throw Error(fmt::format("{}: row_offsets[{}] = {} is less than row_offsets[{}] = {} (matrix "
                                                "{}'s offsets must not decrease)",
                                                who, first + r, off[r], first + r - 1, off[r - 1], b));
    require(off[rows] == nnz, fmt::format("{}: row_offsets[{}] = {} must equal matrix {}'s nnz = {}", who,
                                          first + rows, off[rows], b, nnz));
    for (std::int64_t k = a.nnz_starts[b]; k < a.nnz_starts[b + 1]; ++k) {
      const std::int32_t c = a.col_indices[k];
      if (c < 0 || c >= cols)
        throw Error(fmt::format("{}: col_indices[{}] = {} is outside [0, cols = {}) of matrix {}", who, k, c, cols, b));
    }
  }
}

}  // namespace tessera::spmv_impl::batched
