// Step 10 — the vendor baseline: cub::DeviceScan (CCCL), the yardstick for
// tessera's look-back scan (issue 3: CUB reaches ~82% of the copy bandwidth
// on an H100; tessera's target is 1.1x that).
//
// Plain sums in the element type (float, double, and the wrapping integer
// sums as unsigned) call InclusiveSum / ExclusiveSum. min/max call
// InclusiveScan / ExclusiveScan with the reducer's NaN-propagating combine
// (and its identity as the exclusive initial value). Float sums with a wider
// accumulator scan acc_t states: a transform iterator lifts the input, a
// transform output iterator writes finish(state) rounded to float, so CUB
// accumulates in double / Kahan / double-float like the tessera rungs.
// 64-bit item counts (size_t): any n. CUB's temporary storage lives in the
// workspace (its size from CUB's null-pointer query): no allocation, the run
// is graph-capturable. In place (in == out) is supported by CUB.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <type_traits>

#include "families/scan/cuda_rungs.hpp"
#include "families/scan/hierarchy.cuh"
#include "tessera/blocks/scan_ops.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::scan_impl {

namespace {

template <class R>
struct LiftOp {
  __device__ __forceinline__ typename R::acc_t operator()(const typename R::in_t& x) const { return R::lift(x); }
};
template <class R>
struct FinishOp {
  __device__ __forceinline__ typename R::in_t operator()(const typename R::acc_t& a) const {
    return static_cast<typename R::in_t>(R::finish(a));
  }
};
template <class R>
struct CombineOp {
  __device__ __forceinline__ typename R::acc_t operator()(const typename R::acc_t& a,
                                                          const typename R::acc_t& b) const {
    return R::combine(a, b);
  }
};

template <class R>
constexpr bool is_plain_sum = std::is_same_v<R, PlainSum<float, float>> || std::is_same_v<R, PlainSum<double, double>> ||
                              std::is_same_v<R, WrapSum<std::uint32_t>> || std::is_same_v<R, WrapSum<std::uint64_t>>;
template <class R>
constexpr bool is_state_scan = std::is_same_v<typename R::in_t, typename R::acc_t>;

// CUB's call; d_temp == nullptr only queries temp_bytes.
template <class R>
void cub_scan(void* d_temp, std::size_t& temp_bytes, const typename R::in_t* in, typename R::in_t* out,
              std::size_t n, bool exclusive, cudaStream_t stream) {
  if constexpr (is_plain_sum<R>) {
    if (exclusive) TESSERA_CUDA(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, in, out, n, stream));
    else TESSERA_CUDA(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, in, out, n, stream));
  } else if constexpr (is_state_scan<R>) {
    if (exclusive)
      TESSERA_CUDA(cub::DeviceScan::ExclusiveScan(d_temp, temp_bytes, in, out, CombineOp<R>{}, R::identity(), n, stream));
    else TESSERA_CUDA(cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, in, out, CombineOp<R>{}, n, stream));
  } else {
    const auto lifted = thrust::make_transform_iterator(in, LiftOp<R>{});
    const auto finished = thrust::make_transform_output_iterator(out, FinishOp<R>{});
    if (exclusive)
      TESSERA_CUDA(cub::DeviceScan::ExclusiveScan(d_temp, temp_bytes, lifted, finished, CombineOp<R>{}, R::identity(),
                                                  n, stream));
    else TESSERA_CUDA(cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, lifted, finished, CombineOp<R>{}, n, stream));
  }
}

template <class R>
std::size_t temp_storage_bytes(std::size_t n, bool exclusive) {
  std::size_t bytes = 0;
  cub_scan<R>(nullptr, bytes, nullptr, nullptr, n, exclusive, nullptr);
  return bytes;
}

template <class R>
void run_cub_for(const ScanCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  std::size_t temp_bytes = temp_storage_bytes<R>(n, call.spec.exclusive);
  cub_scan<R>(call.workspace, temp_bytes, static_cast<const typename R::in_t*>(call.in),
              static_cast<typename R::in_t*>(call.out), n, call.spec.exclusive, call.stream);
}

}  // namespace

void run_cub_device_scan(const ScanCall& call) {
  dispatch_scan_or_throw("cub_device_scan", call.spec, [&]<class R>() { run_cub_for<R>(call); });
}

std::size_t ws_cub_device_scan(const ScanSpec& spec) {
  if (spec.n == 0) return 0;
  std::size_t bytes = 0;
  dispatch_scan(spec.dtype, spec.op, spec.accum,
                [&]<class R>() { bytes = gpu::align_workspace(temp_storage_bytes<R>(spec.n, spec.exclusive)); });
  return bytes;
}

bool supports_cub_device_scan(const ScanSpec& spec) { return scan_spec_supported(spec); }

}  // namespace tessera::scan_impl
