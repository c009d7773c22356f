// A cuBLAS handle per device for the cuBLAS baselines (transpose's geam;
// other baselines may lease it too).
//
// One handle per device for the whole process, created by prepare_cublas()
// — cublasCreate allocates, so it is called outside any timed region or
// graph capture (the harness calls a variant's prepare() when it binds the
// variant to a problem; the public APIs before the first run). A run then
// takes a lease: the handle, locked against other host threads and bound to
// the caller's stream, so the vendor call is enqueued on that stream like
// every other variant and can be captured into a graph.
//
// The handle is shared: a lease holder sets any other handle state it relies
// on (math mode, pointer mode) itself, every time. Handles are never
// destroyed: they live until the process exits (destroying them from static
// destructors races the CUDA runtime's own teardown).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <mutex>

namespace tessera::vendor {

// Throws tessera::Error naming the call, file, line and cuBLAS status.
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line);

inline void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) throw_cublas_error(status, call, file, line);
}

// Creates the current device's handle if it does not exist yet.
void prepare_cublas();

// The current device's handle, bound to `stream`, locked for the lifetime of
// the lease. Creates the handle when prepare_cublas() was not called (not
// allowed while `stream` is being captured).
struct CublasLease {
  cublasHandle_t handle;
  std::unique_lock<std::mutex> lock;
};
CublasLease lease_cublas(cudaStream_t stream);

}  // namespace tessera::vendor

#define TESSERA_CUBLAS(call) ::tessera::vendor::check_cublas((call), #call, __FILE__, __LINE__)
