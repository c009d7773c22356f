// The CUDA rungs of the spmv ladder (steps 2-8) and the vendor baseline
// (step 9). Each rung provides
//   run_X(call)          enqueue y = alpha A x + beta y on call.stream (no
//                        allocation, no host synchronisation: graph-capturable);
//   ws_X(spec)           workspace bytes run_X needs;
//   supports_X(spec)     whether the rung handles the shape;
//   prepare_X(args)      (format rungs and the vendor) the matrix in the rung's
//                        format, in device memory, built once outside timing.
// Plain C++: no CUDA headers needed to include this.
#pragma once

#include <cstddef>
#include <memory>

#include "families/spmv/contract.hpp"

namespace tessera::spmv_impl {

#define TESSERA_DECLARE_SPMV_RUNG(name)          \
  void run_##name(const SpmvCall& call);         \
  std::size_t ws_##name(const SpmvSpec& spec);   \
  bool supports_##name(const SpmvSpec& spec);
#define TESSERA_DECLARE_SPMV_PREPARE(name) std::unique_ptr<SpmvPlan> prepare_##name(const PrepareArgs& args);

// 02_csr_scalar.cu
TESSERA_DECLARE_SPMV_RUNG(csr_scalar)
// 03_csr_vector.cu
TESSERA_DECLARE_SPMV_RUNG(csr_vector)
// 04_ell.cu
TESSERA_DECLARE_SPMV_RUNG(ell)
TESSERA_DECLARE_SPMV_PREPARE(ell)
// 05_coo.cu
TESSERA_DECLARE_SPMV_RUNG(coo_atomic)
TESSERA_DECLARE_SPMV_PREPARE(coo_atomic)
TESSERA_DECLARE_SPMV_RUNG(coo_segmented)
TESSERA_DECLARE_SPMV_PREPARE(coo_segmented)
// 06_hyb.cu
TESSERA_DECLARE_SPMV_RUNG(hyb)
TESSERA_DECLARE_SPMV_PREPARE(hyb)
// 07_jds.cu
TESSERA_DECLARE_SPMV_RUNG(jds)
TESSERA_DECLARE_SPMV_PREPARE(jds)
TESSERA_DECLARE_SPMV_RUNG(jds_ell_sections)
TESSERA_DECLARE_SPMV_PREPARE(jds_ell_sections)
// 08_csr_nnz_split.cu
TESSERA_DECLARE_SPMV_RUNG(csr_nnz_split)
// 08_csr_subwarp_vec4.cu
TESSERA_DECLARE_SPMV_RUNG(csr_subwarp_vec4)
// 08_csr_scalar_guarded.cu
TESSERA_DECLARE_SPMV_RUNG(csr_scalar_guarded)
// 08_sell_c_sigma.cu
TESSERA_DECLARE_SPMV_RUNG(sell_c_sigma)
TESSERA_DECLARE_SPMV_PREPARE(sell_c_sigma)
// 09_cusparse_spmv.cu
TESSERA_DECLARE_SPMV_RUNG(cusparse_spmv)
TESSERA_DECLARE_SPMV_PREPARE(cusparse_spmv)

#undef TESSERA_DECLARE_SPMV_RUNG
#undef TESSERA_DECLARE_SPMV_PREPARE

// cuSPARSE refuses a CSR with more entries than cells (nnz > rows * cols),
// which only duplicate (row, col) entries make; tessera's rungs sum them.
// supports_cusparse_spmv declines such shapes (the harness says why).
inline bool vendor_refuses_duplicates(const SpmvSpec& s) {
  if (s.nnz <= 0) return false;
  if (s.rows <= 0 || s.cols <= 0) return true;
  return (s.nnz - 1) / s.cols >= s.rows;  // nnz > rows * cols without overflow
}

// csr_vector's lanes per row for this shape (2..32, a power of two): the
// mean row length rounded up, so that a row's lanes are mostly busy.
int csr_vector_lanes(const SpmvSpec& spec);

// csr_subwarp_vec4's lanes per row (2..32): one step of 4 entries a lane
// covers the mean row plus its alignment slack.
int csr_subwarp_vec4_lanes(const SpmvSpec& spec);

// validate.cu: the first index that breaks the CSR structure on the device,
// or -1. first_bad_offset: the first r in [0, rows] with offsets[0] != 0
// (r = 0), offsets[r] < offsets[r-1], or offsets[rows] != nnz (r = rows).
// first_bad_column: the first k with col[k] outside [0, cols). Both
// synchronise `stream`.
std::int64_t device_first_bad_offset(const std::int64_t* offsets, std::int64_t rows, std::int64_t nnz,
                                     stream_t stream);
std::int64_t device_first_bad_column(const std::int32_t* col, std::int64_t nnz, std::int64_t cols, stream_t stream);

}  // namespace tessera::spmv_impl
