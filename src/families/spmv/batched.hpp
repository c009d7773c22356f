// spmv_batched's internal contract: one batch of independent CSR matrices
// (include/tessera/spmv.hpp describes the layout), its variants, and the
// argument checks the public API and the tests share. Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/blocks/hd.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::batched {

inline constexpr const char* API_NAME = "tessera::spmv_batched";

struct BatchSpec {
  Dtype dtype;
  std::int64_t count, rows, cols, nnz;  // totals
};

struct BatchArrays {
  const std::int64_t* row_starts = nullptr;
  const std::int64_t* col_starts = nullptr;
  const std::int64_t* nnz_starts = nullptr;
  const std::int64_t* row_offsets = nullptr;
  const std::int32_t* col_indices = nullptr;
  const void* values = nullptr;
};

// A prepared batch (the vendor's descriptors); owns its memory.
struct BatchPlan {
  virtual ~BatchPlan() = default;
  std::string note;
};

struct BatchCall {
  BatchSpec spec;
  BatchArrays a;
  const void* x;
  void* y;
  double alpha, beta;
  const BatchPlan* plan;
  void* workspace;  // workspace_bytes(spec), same memory kind as the arrays
  stream_t stream;
};

struct BatchVariant {
  VariantInfo info;
  std::size_t (*workspace_bytes)(const BatchSpec&);
  // Null: nothing to prepare. Sees the arrays in the variant's memory and,
  // when the caller has them, on the host (the harness; else nulls).
  std::unique_ptr<BatchPlan> (*prepare)(const BatchSpec&, const BatchArrays& host, const BatchArrays& device,
                                        stream_t);
  void (*run)(const BatchCall&);
};

// The variants in ladder order (CPU always, CUDA ones in CUDA builds).
std::span<const BatchVariant> variants();  // ladder order
const BatchVariant& variant_named(std::string_view name, const char* who);

void run_cpu_reference(const BatchCall& call);

// O(1) checks: sizes, null pointers where sizes need data, x / y overlap.
void check_arguments(const BatchSpec& s, const BatchArrays& a, const void* x, const void* y, const char* who);
// One pass over host arrays: the starts (0 first, non-decreasing, ending at
// the totals), each matrix's offsets (0 first, non-decreasing, ending at its
// nnz) and columns (in [0, cols_b)). The message names the array and index.
void check_structure_host(const BatchSpec& s, const BatchArrays& a, const char* who);

// The matrix that owns entry k: the last b in [lo, hi] with nnz_starts[b]
// <= k (empty matrices share their start with the next one, which owns k).
// batched_nnz_split's search for each nonzero's x (host-and-device, so the
// CPU tests run it).
TESSERA_HD std::int64_t matrix_of(const std::int64_t* nnz_starts, std::int64_t lo, std::int64_t hi, std::int64_t k) {
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (nnz_starts[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Whether every matrix has the same rows, columns and entries (host
// starts): what cuSPARSE's strided batch (cusparse_strided) needs, one
// descriptor with a fixed stride between the matrices' arrays.
inline bool uniform_shapes(const std::int64_t* row_starts, const std::int64_t* col_starts,
                           const std::int64_t* nnz_starts, std::int64_t count) {
  for (std::int64_t b = 1; b < count; ++b)
    if (row_starts[b + 1] - row_starts[b] != row_starts[1] || col_starts[b + 1] - col_starts[b] != col_starts[1] ||
        nnz_starts[b + 1] - nnz_starts[b] != nnz_starts[1])
      return false;
  return true;
}

inline std::size_t value_bytes(Dtype t) { return t == Dtype::f64 ? 8 : 4; }

}  // namespace tessera::spmv_impl::batched
