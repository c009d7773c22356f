// cuBLAS loaded on its first call, not at program start. Linked normally,
// libcublas and libcublasLt (~0.5 GB together) are mapped and run their own
// static set-up in every process that loads libtessera: 0.08-0.15 s measured
// on `tessera --help` (2-core build machine, 2026-11-27), paid by every
// command, `tessera traces` included, which never calls cuBLAS. libtessera
// therefore defines the few cuBLAS entry points its baselines call and
// forwards each to the real one, found with dlopen/dlsym on first use
// (libcublas.so.MAJOR of the headers built against). Where the library
// cannot be loaded, the calls return CUBLAS_STATUS_NOT_INITIALIZED, which
// TESSERA_CUBLAS reports with the call's name. A baseline that calls another
// cuBLAS function adds it here (the link of libtessera fails without it:
// -Wl,--no-undefined).
#include <cublas_v2.h>
#include <dlfcn.h>

#include <cstdint>
#include <string>

namespace {

void* cublas_library() {
  static void* const handle = [] {
    const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    return ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

// The real `name` from libcublas, of the declared function's type; null
// when the library or the symbol is missing.
template <class Fn>
Fn real(const char* name) {
  void* lib = cublas_library();
  return lib == nullptr ? nullptr : reinterpret_cast<Fn>(::dlsym(lib, name));
}

}  // namespace

// Each forwarder resolves its target once (thread-safe static).
#define TESSERA_CUBLAS_FORWARD(fn, params, args)                            \
  extern "C" cublasStatus_t CUBLASWINAPI fn params {                       \
    static const auto target = real<decltype(&fn)>(#fn);                  \
    return target == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : target args; \
  }

TESSERA_CUBLAS_FORWARD(cublasCreate_v2, (cublasHandle_t* handle), (handle))
TESSERA_CUBLAS_FORWARD(cublasSetStream_v2, (cublasHandle_t handle, cudaStream_t stream), (handle, stream))
TESSERA_CUBLAS_FORWARD(cublasSetPointerMode_v2, (cublasHandle_t handle, cublasPointerMode_t mode), (handle, mode))
TESSERA_CUBLAS_FORWARD(cublasSetWorkspace_v2, (cublasHandle_t handle, void* workspace, size_t bytes),
                       (handle, workspace, bytes))
TESSERA_CUBLAS_FORWARD(cublasSetMathMode, (cublasHandle_t handle, cublasMath_t mode), (handle, mode))
TESSERA_CUBLAS_FORWARD(cublasSgemm_v2,
                       (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                        const float* alpha, const float* A, int lda, const float* B, int ldb, const float* beta,
                        float* C, int ldc),
                       (handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc))
TESSERA_CUBLAS_FORWARD(cublasSsyrk_v2,
                       (cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                        const float* alpha, const float* A, int lda, const float* beta, float* C, int ldc),
                       (handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc))
TESSERA_CUBLAS_FORWARD(cublasSgeam,
                       (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                        const float* alpha, const float* A, int lda, const float* beta, const float* B, int ldb,
                        float* C, int ldc),
                       (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc))
TESSERA_CUBLAS_FORWARD(cublasDgeam,
                       (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                        const double* alpha, const double* A, int lda, const double* beta, const double* B, int ldb,
                        double* C, int ldc),
                       (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc))
TESSERA_CUBLAS_FORWARD(cublasSgeam_64,
                       (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                        int64_t n, const float* alpha, const float* A, int64_t lda, const float* beta, const float* B,
                        int64_t ldb, float* C, int64_t ldc),
                       (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc))
TESSERA_CUBLAS_FORWARD(cublasDgeam_64,
                       (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                        int64_t n, const double* alpha, const double* A, int64_t lda, const double* beta,
                        const double* B, int64_t ldb, double* C, int64_t ldc),
                       (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc))

#undef TESSERA_CUBLAS_FORWARD

// The status texts: used on error paths, where the library may be missing.
extern "C" const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
  static const auto target = real<decltype(&cublasGetStatusString)>("cublasGetStatusString");
  return target != nullptr ? target(status) : "cuBLAS library (libcublas) could not be loaded";
}

extern "C" const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) {
  static const auto target = real<decltype(&cublasGetStatusName)>("cublasGetStatusName");
  return target != nullptr ? target(status) : "CUBLAS_STATUS_NOT_INITIALIZED";
}
