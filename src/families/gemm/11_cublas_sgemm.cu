// Steps 11 and 16 — the vendor baselines: cublasSgemm for C = A*B and
// cublasSsyrk for C = A*A^T, plain FP32 (tensor cores off), measured in the
// same run as the tessera rungs.
//
// Row-major through column-major cuBLAS: a row-major m x n matrix with
// leading dimension ld is, to cuBLAS, its n x m transpose. So
//   C = op(A)*op(B) (row-major)  <=>  C^T = op(B)^T op(A)^T, and a stored
//             row-major operand is, to cuBLAS, its transpose, so the ops
//             carry over unchanged: Sgemm(opB, opA, n, m, k, B, ldb, A, lda,
//             C, ldc) (NN: Sgemm(N, N, ...));
//   C = A*A^T (row-major)  <=>  A is cuBLAS's k x m matrix X = A^T and
//             C = X^T X: Ssyrk(trans = T, n = m, k, A, lda); cuBLAS's upper
//             triangle (row <= col in its view) is the row-major lower
//             triangle, j <= i: Fill::lower. The check compares that
//             triangle only; the public API mirrors it onto the upper one.
//
// Math mode CUBLAS_DEFAULT_MATH: FP32 arithmetic (no TF32 unless the user
// sets NVIDIA_TF32_OVERRIDE=1 in the environment, which tessera does not).
// The handle is created once per device outside any timed region (the
// check runs first) and deliberately never destroyed (destroying it at exit
// would race the CUDA runtime's own teardown). Its workspace is the call's
// workspace (32 MiB, NVIDIA's recommendation for Hopper), set on every call,
// so a run allocates nothing and can be captured in a graph. One mutex
// serialises the stream/workspace/call sequence on the shared handle.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <array>
#include <climits>
#include <mutex>
#include <string>

#include "families/gemm/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr std::size_t CUBLAS_WORKSPACE_BYTES = std::size_t(32) << 20;
constexpr int MAX_DEVICES = 64;

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string("cuBLAS ") + call + " failed: " + cublasGetStatusName(status) + " (" +
                cublasGetStatusString(status) + ")");
}

// Runs f(handle) with the device's handle bound to the call's stream and workspace.
template <class F>
void with_handle(const GemmCall& call, F&& f) {
  static std::mutex mutex;
  static std::array<cublasHandle_t, MAX_DEVICES> handles{};
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  if (device < 0 || device >= MAX_DEVICES) throw Error("cuBLAS baseline: device ordinal " + std::to_string(device) + " out of range");
  std::lock_guard<std::mutex> lock(mutex);
  cublasHandle_t& h = handles[std::size_t(device)];
  if (h == nullptr) {
    check_cublas(cublasCreate(&h), "cublasCreate");
    check_cublas(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    check_cublas(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
  }
  check_cublas(cublasSetStream(h, call.stream), "cublasSetStream");
  check_cublas(cublasSetWorkspace(h, call.workspace, CUBLAS_WORKSPACE_BYTES), "cublasSetWorkspace");
  f(h);
}

bool fits_int(std::size_t v) { return v <= std::size_t(INT_MAX); }

}  // namespace

bool supports_cublas_sgemm(const GemmSpec& s) {
  return s.op == GemmOp::ab && fits_int(s.m) && fits_int(s.n) && fits_int(s.k) && fits_int(s.lda) &&
         fits_int(s.ldb) && fits_int(s.ldc);
}

bool supports_cublas_ssyrk(const GemmSpec& s) {
  return s.op == GemmOp::aat && fits_int(s.m) && fits_int(s.k) && fits_int(s.lda) && fits_int(s.ldc);
}

std::size_t cublas_workspace_bytes(const GemmSpec&) { return CUBLAS_WORKSPACE_BYTES; }

void run_cublas_sgemm(const GemmCall& call) {
  const auto& s = call.spec;
  if (s.m == 0 || s.n == 0) return;
  with_handle(call, [&](cublasHandle_t h) {
    const cublasOperation_t op_b = s.tb ? CUBLAS_OP_T : CUBLAS_OP_N, op_a = s.ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    check_cublas(cublasSgemm(h, op_b, op_a, int(s.n), int(s.m), int(s.k), &call.alpha, call.b, int(s.ldb),
                             call.a, int(s.lda), &call.beta, call.c, int(s.ldc)),
                 "cublasSgemm");
  });
}

void run_cublas_ssyrk(const GemmCall& call) {
  const auto& s = call.spec;
  if (s.m == 0) return;
  with_handle(call, [&](cublasHandle_t h) {
    check_cublas(cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, int(s.m), int(s.k), &call.alpha, call.a,
                             int(s.lda), &call.beta, call.c, int(s.ldc)),
                 "cublasSsyrk");
  });
}

}  // namespace tessera::gemm_impl
