// The spmv pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU, CUDA, vendor) fills an
// SpmvVariant; the public API and the harness only go through the ladder.
//
// Format rungs (COO, ELL, HYB, JDS, sliced ELL) and the vendor baseline need
// a preparation: the matrix converted into their format, or the vendor's
// descriptors and buffer. prepare() builds it once, outside any timed region
// (the harness when it binds a variant to a problem; the public API on every
// call), like a plan; run() then only enqueues kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::spmv_impl {

// The shape (everything but the data).
struct SpmvSpec {
  Dtype dtype;  // f32 or f64
  std::int64_t rows, cols, nnz;
};

// The CSR arrays; `values` holds nnz elements of spec.dtype.
struct CsrArrays {
  const std::int64_t* row_offsets = nullptr;
  const std::int32_t* col_indices = nullptr;
  const void* values = nullptr;
};

// A prepared format: owns its memory (device memory for CUDA variants).
// footprint_bytes: what the format occupies beyond x and y (the CSR arrays'
// own bytes for the CSR rungs), reported in the bench rows' notes.
struct SpmvPlan {
  virtual ~SpmvPlan() = default;
  std::size_t footprint_bytes = 0;
  std::string note;  // "ell width 5: 503 MB"
};

// What a preparation sees: the CSR on the device (the GPU conversions read
// it; the vendor's descriptors point at it) and, when the caller has it, on
// the host (the harness; the public API passes none, and the host
// conversions copy the device arrays down).
struct PrepareArgs {
  SpmvSpec spec;
  CsrArrays host;
  CsrArrays device;
  stream_t stream;
};

// One call. Pointers are device pointers for CUDA variants and host pointers
// for CPU variants. `workspace` holds workspace_bytes(spec) bytes of the same
// memory kind, contents undefined on entry. A CUDA run only enqueues work on
// `stream`: no allocation, no host synchronisation (graph-capturable). With
// beta == 0, y is never read.
struct SpmvCall {
  SpmvSpec spec;
  CsrArrays a;
  const void* x;
  void* y;
  double alpha, beta;
  const SpmvPlan* plan;  // prepare()'s result, null for variants without one
  void* workspace;
  stream_t stream;
};

struct SpmvVariant {
  VariantInfo info;
  bool (*supports)(const SpmvSpec&);
  std::size_t (*workspace_bytes)(const SpmvSpec&);
  std::unique_ptr<SpmvPlan> (*prepare)(const PrepareArgs&);  // null: nothing to prepare
  void (*run)(const SpmvCall&);
};

// The ladder (ladder.cpp's one table, in step order).
ladder::Ladder<SpmvVariant>& variants_ladder();

inline std::size_t value_bytes(Dtype t) { return t == Dtype::f64 ? 8 : 4; }

// Bytes of the CSR arrays themselves.
inline std::size_t csr_bytes(const SpmvSpec& s) {
  return std::size_t(s.rows + 1) * 8 + std::size_t(s.nnz) * (4 + value_bytes(s.dtype));
}

}  // namespace tessera::spmv_impl
