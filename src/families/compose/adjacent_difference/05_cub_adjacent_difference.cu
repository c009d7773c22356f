// adjacent_difference step 5 — the vendor baseline (CCCL's CUB):
// cub::DeviceAdjacentDifference::SubtractLeftCopy with an |a - b| operator
// into the absdiff_t output. CUB copies in[0] to out[0] (converted), so a
// one-thread kernel then writes out[0] = |in[0]|, tessera's definition. Its
// temporary storage lives in the workspace (CUB's null-pointer query).
#include <cuda_runtime.h>

#include <cub/device/device_adjacent_difference.cuh>

#include "families/compose/cuda_rungs.hpp"
#include "families/compose/dispatch.hpp"
#include "families/compose/ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

// SubtractLeftCopy calls op(in[i], in[i - 1]).
template <class T>
struct AbsDiffOp {
  __device__ __forceinline__ absdiff_t<T> operator()(T right, T left) const { return absdiff(right, left); }
};

template <class T>
__global__ void adjdiff_first_kernel(const T* __restrict__ in, absdiff_t<T>* __restrict__ out) {
  out[0] = absdiff(in[0], T(0));
}

template <class T>
void cub_adjdiff(void* temp, std::size_t& bytes, const T* in, absdiff_t<T>* out, std::size_t n, cudaStream_t s) {
  TESSERA_CUDA(cub::DeviceAdjacentDifference::SubtractLeftCopy(temp, bytes, in, out, static_cast<std::int64_t>(n),
                                                                 AbsDiffOp<T>{}, s));
}

}  // namespace

void run_cub_adjacent_difference(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  dispatch_map_type(call.spec.dtype, [&]<class T>() {
    const T* in = static_cast<const T*>(call.in);
    auto* out = static_cast<absdiff_t<T>*>(call.out);
    std::size_t bytes = 0;
    cub_adjdiff<T>(nullptr, bytes, in, out, n, call.stream);
    cub_adjdiff<T>(call.workspace, bytes, in, out, n, call.stream);
    detail::launch("adjdiff_first_kernel", adjdiff_first_kernel<T>, dim3(1), dim3(1), 0, call.stream, n, in, out);
  });
}
std::size_t ws_cub_adjacent_difference(const Spec& spec) {
  std::size_t bytes = 0;
  if (spec.n == 0) return 0;
  dispatch_map_type(spec.dtype, [&]<class T>() { cub_adjdiff<T>(nullptr, bytes, nullptr, nullptr, spec.n, nullptr); });
  return bytes;
}
bool supports_cub_adjacent_difference(const Spec& spec) {
  return spec.family == Family::adjacent_difference && family_supports(spec);
}

}  // namespace tessera::compose_impl
