// Step 8 — the vendor baseline: cublasSgeam / cublasDgeam (C = alpha op(A) +
// beta op(B)) with alpha = 1, beta = 0 and op = transpose, the yardstick for
// tessera's transposes.
//
// cuBLAS is column-major: a row-major rows x cols input with pitch ld_in is a
// column-major cols x rows matrix with leading dimension ld_in, and the
// row-major cols x rows output with pitch ld_out a column-major rows x cols
// matrix with leading dimension ld_out. So C (rows x cols, ldc = ld_out) =
// A^T with A (cols x rows, lda = ld_in): m = rows, n = cols, transa = T.
// B is passed as A itself with transb = T (the same m x n operand), so even
// if a cuBLAS version reads B despite beta = 0 it reads valid, finite data
// and 1 * a + 0 * a == a bit for bit for every finite a (and -0).
// The 64-bit entry points (cublas{S,D}geam_64) take any size.
//
// The handle is created by prepare() (the harness binds the variant before
// timing; the public API prepares before the first run) and leased per run:
// bound to the call's stream, so the geam is enqueued there like every other
// variant (graph-capturable; geam needs no workspace).
#include <cublas_v2.h>

#include "core/cublas_handle.hpp"
#include "families/transpose/cuda_rungs.hpp"

namespace tessera::transpose_impl {

namespace {

template <class T>
void geam_transpose(const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  const T one = 1, zero = 0;
  const auto* a = static_cast<const T*>(call.in);
  auto* c = static_cast<T*>(call.out);
  const auto m = static_cast<std::int64_t>(s.rows), n = static_cast<std::int64_t>(s.cols);
  const auto lda = static_cast<std::int64_t>(s.ld_in), ldc = static_cast<std::int64_t>(s.ld_out);
  vendor::CublasLease lease = vendor::lease_cublas(call.stream);
  TESSERA_CUBLAS(cublasSetPointerMode(lease.handle, CUBLAS_POINTER_MODE_HOST));
  if constexpr (sizeof(T) == 4)
    TESSERA_CUBLAS(cublasSgeam_64(lease.handle, CUBLAS_OP_T, CUBLAS_OP_T, m, n, &one, a, lda, &zero, a, lda, c, ldc));
  else
    TESSERA_CUBLAS(cublasDgeam_64(lease.handle, CUBLAS_OP_T, CUBLAS_OP_T, m, n, &one, a, lda, &zero, a, lda, c, ldc));
}

}  // namespace

void run_cublas_geam(const TransposeCall& call) {
  if (call.spec.dtype == Dtype::f32) geam_transpose<float>(call);
  else geam_transpose<double>(call);
}

bool supports_cublas_geam(const TransposeSpec& s) { return s.dtype == Dtype::f32 || s.dtype == Dtype::f64; }

void prepare_cublas_geam() { vendor::prepare_cublas(); }

}  // namespace tessera::transpose_impl
