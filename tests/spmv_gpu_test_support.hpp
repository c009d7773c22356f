// Shared by the spmv GPU tests: device copies of host matrices and vectors.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "families/spmv/matrices.hpp"
#include "test_gpu_support.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/spmv.hpp"

namespace tessera_test::spmv {

// Device copies of a host matrix and vectors, freed at scope exit.
struct DeviceArray {
  void* p = nullptr;
  explicit DeviceArray(std::size_t bytes) { TESSERA_CUDA(cudaMalloc(&p, std::max<std::size_t>(bytes, 16))); }
  ~DeviceArray() { (void)cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

template <class V>
std::unique_ptr<DeviceArray> to_device(const std::vector<V>& v) {
  auto d = std::make_unique<DeviceArray>(v.size() * sizeof(V));
  TESSERA_CUDA(cudaMemcpy(d->p, v.data(), v.size() * sizeof(V), cudaMemcpyHostToDevice));
  tessera_test::device_sync();  // landed before a non-blocking stream reads it
  return d;
}

template <class T>
struct DeviceMatrix {
  std::unique_ptr<DeviceArray> off, col, val;
  std::int64_t rows, cols, nnz;
  explicit DeviceMatrix(const tessera::spmv_impl::matrices::HostMatrix<T>& m)
      : off(to_device(m.offsets)), col(to_device(m.col)), val(to_device(m.val)), rows(m.rows), cols(m.cols),
        nnz(m.nnz()) {}
  tessera::Csr<T> view() const {
    return {rows, cols, nnz, static_cast<const std::int64_t*>(off->p), static_cast<const std::int32_t*>(col->p),
            static_cast<const T*>(val->p)};
  }
};

}  // namespace tessera_test::spmv
