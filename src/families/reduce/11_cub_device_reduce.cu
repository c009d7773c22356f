// Step 11 — the vendor baseline: cub::DeviceReduce (CCCL), the yardstick for
// tessera's single_pass.
//
// Plain float sums call cub::DeviceReduce::Sum straight into the output.
// Every other reducer goes through cub::DeviceReduce::TransformReduce with the
// reducer's lift as the transform and its combine as the reduction operator,
// so double / Kahan / double-float accumulation and int32 -> int64 widening
// give the same semantics as the tessera rungs; the acc_t result lands in the
// workspace and the finish kernel writes R::finish(acc) to the output.
// CUB's temporary storage lives in the workspace too (its size comes from
// CUB's null-pointer query), so a run allocates nothing and is graph-capturable.
//
// Workspace layout (256-byte aligned sub-buffers):
//   plain float sum:  [ CUB temp storage ]
//   everything else:  [ acc_t result (256 B) ][ CUB temp storage ]
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <type_traits>

#include "families/reduce/cuda_rungs.hpp"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/reducers.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::reduce_impl {

namespace {

template <class R>
struct LiftOp {
  __device__ __forceinline__ typename R::acc_t operator()(const typename R::in_t& x) const { return R::lift(x); }
};

template <class R>
struct CombineOp {
  __device__ __forceinline__ typename R::acc_t operator()(const typename R::acc_t& a,
                                                          const typename R::acc_t& b) const {
    return R::combine(a, b);
  }
};

template <class R>
constexpr bool direct_sum = std::is_same_v<R, PlainSum<float, float>>;

// CUB's call; d_temp == nullptr only queries temp_bytes.
template <class R>
void cub_reduce(void* d_temp, std::size_t& temp_bytes, const typename R::in_t* in, void* result, std::size_t n,
                cudaStream_t stream) {
  if constexpr (direct_sum<R>) {
    TESSERA_CUDA(cub::DeviceReduce::Sum(d_temp, temp_bytes, in, static_cast<float*>(result), n, stream));
  } else {
    TESSERA_CUDA(cub::DeviceReduce::TransformReduce(d_temp, temp_bytes, in, static_cast<typename R::acc_t*>(result),
                                                    n, CombineOp<R>{}, LiftOp<R>{}, R::identity(), stream));
  }
}

template <class R>
std::size_t temp_storage_bytes(std::size_t n) {
  std::size_t bytes = 0;
  cub_reduce<R>(nullptr, bytes, nullptr, nullptr, n, nullptr);
  return bytes;
}

template <class R>
constexpr std::size_t result_bytes = direct_sum<R> ? 0 : gpu::align_workspace(sizeof(typename R::acc_t));

template <class R>
void run_cub_for(const ReduceCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) {
    gpu::write_identity<R>(call.out, call.stream);
    return;
  }
  std::size_t temp_bytes = temp_storage_bytes<R>(n);
  void* temp = gpu::workspace_at<unsigned char>(call.workspace, result_bytes<R>);
  const auto* in = static_cast<const typename R::in_t*>(call.in);
  if constexpr (direct_sum<R>) {
    cub_reduce<R>(temp, temp_bytes, in, call.out, n, call.stream);
  } else {
    auto* acc = gpu::workspace_at<typename R::acc_t>(call.workspace, 0);
    cub_reduce<R>(temp, temp_bytes, in, acc, n, call.stream);
    gpu::launch_finish<R>(acc, call.out, call.stream, n);
  }
}

}  // namespace

void run_cub_device_reduce(const ReduceCall& call) {
  gpu::dispatch_or_throw("cub_device_reduce", call.spec, [&]<class R>() { run_cub_for<R>(call); });
}

std::size_t ws_cub_device_reduce(const ReduceSpec& spec) {
  if (spec.n == 0) return 0;
  std::size_t bytes = 0;
  dispatch_reducer(spec.dtype, spec.op, spec.accum, [&]<class R>() {
    bytes = result_bytes<R> + gpu::align_workspace(temp_storage_bytes<R>(spec.n));
  });
  return bytes;
}

bool supports_cub_device_reduce(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
