#include "core/cublas_handle.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::vendor {

namespace {

constexpr int MAX_DEVICES = 64;  // more GPUs than any single host has

struct Slot {
  std::mutex mutex;
  cublasHandle_t handle = nullptr;
};

Slot& slot_of_current_device() {
  static std::array<Slot, MAX_DEVICES> slots;
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  if (device < 0 || device >= MAX_DEVICES)
    throw Error(fmt::format("tessera: device ordinal {} outside the cuBLAS handle table", device));
  return slots[static_cast<std::size_t>(device)];
}

// Called with the slot locked.
void create_if_missing(Slot& slot) {
  if (slot.handle == nullptr) TESSERA_CUBLAS(cublasCreate(&slot.handle));
}

}  // namespace

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  (void)cudaGetLastError();
  throw Error(fmt::format("cuBLAS error in {} at {}:{}: {} ({})", call, file, line, cublasGetStatusString(status),
                          cublasGetStatusName(status)));
}

void prepare_cublas() {
  Slot& slot = slot_of_current_device();
  const std::lock_guard<std::mutex> lock(slot.mutex);
  create_if_missing(slot);
}

CublasLease lease_cublas(cudaStream_t stream) {
  Slot& slot = slot_of_current_device();
  std::unique_lock<std::mutex> lock(slot.mutex);
  create_if_missing(slot);
  TESSERA_CUBLAS(cublasSetStream(slot.handle, stream));
  return {slot.handle, std::move(lock)};
}

}  // namespace tessera::vendor
