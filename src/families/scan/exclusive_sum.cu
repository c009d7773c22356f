// scan_impl::exclusive_sum: tessera's device-wide exclusive sum (the step-9
// look-back kernel, `lookback`'s policy) on uint32 or int64 values, for the
// patterns that turn flags and counts into offsets (contract.hpp documents
// the contract).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "families/scan/contract.hpp"
#include "families/scan/lookback_run.cuh"
#include "tessera/blocks/scan_ops.hpp"
#include "tessera/core/error.hpp"

namespace tessera::scan_impl {

namespace {

// int64 sums wrap as uint64 (two's complement): the same bits.
template <class U>
using SumScan = gpu::LookbackScan<LookbackPrimary, ScanOf<WrapSum<U>>>;

template <class U, class T>
void exclusive_sum_as(const T* in, T* out, std::size_t n, T* total, void* workspace, std::size_t workspace_bytes,
                      stream_t stream) {
  static_assert(sizeof(U) == sizeof(T));
  if (n == 0) {
    if (total != nullptr) TESSERA_CUDA(cudaMemsetAsync(total, 0, sizeof(T), stream));
    return;
  }
  require(in != nullptr && out != nullptr,
          "scan_impl::exclusive_sum: null in or out pointer with n = " + std::to_string(n));
  const std::size_t need = SumScan<U>::workspace_bytes(n);
  require(workspace != nullptr && workspace_bytes >= need,
          "scan_impl::exclusive_sum: workspace of " + std::to_string(workspace_bytes) + " bytes, n = " +
              std::to_string(n) + " needs " + std::to_string(need));
  run_lookback<LookbackPrimary>("scan_lookback_kernel (exclusive_sum)", ScanOf<WrapSum<U>>{},
                                reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out), n, true,
                                reinterpret_cast<U*>(total), workspace, stream);
}

}  // namespace

std::size_t exclusive_sum_workspace_bytes(Dtype type, std::size_t n) {
  switch (type) {
    case Dtype::u32: return SumScan<std::uint32_t>::workspace_bytes(n);
    case Dtype::i64: return SumScan<std::uint64_t>::workspace_bytes(n);
    default:
      throw Error("scan_impl::exclusive_sum: element type " + std::string(to_string(type)) +
                  " not supported (uint32 or int64)");
  }
}

void exclusive_sum(const std::uint32_t* in, std::uint32_t* out, std::size_t n, std::uint32_t* total, void* workspace,
                   std::size_t workspace_bytes, stream_t stream) {
  exclusive_sum_as<std::uint32_t>(in, out, n, total, workspace, workspace_bytes, stream);
}

void exclusive_sum(const std::int64_t* in, std::int64_t* out, std::size_t n, std::int64_t* total, void* workspace,
                   std::size_t workspace_bytes, stream_t stream) {
  exclusive_sum_as<std::uint64_t>(in, out, n, total, workspace, workspace_bytes, stream);
}

}  // namespace tessera::scan_impl
