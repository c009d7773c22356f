// map step 4 — the vendor baseline (CCCL's CUB):
// cub::DeviceTransform::Transform with the map function as a functor (no
// temporary storage).
#include <cuda_runtime.h>

#include <cub/device/device_transform.cuh>

#include "families/compose/cuda_rungs.hpp"
#include "families/compose/dispatch.hpp"
#include "families/compose/ops.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

template <class T>
struct MapOp {
  MapFn fn;
  __device__ __forceinline__ T operator()(T x) const { return map_apply(fn, x); }
};

}  // namespace

void run_cub_transform(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  dispatch_map_type(call.spec.dtype, [&]<class T>() {
    TESSERA_CUDA(cub::DeviceTransform::Transform(static_cast<const T*>(call.in), static_cast<T*>(call.out),
                                                 static_cast<std::int64_t>(n), MapOp<T>{call.spec.fn}, call.stream));
  });
}
std::size_t ws_cub_transform(const Spec&) { return 0; }
bool supports_cub_transform(const Spec& spec) { return spec.family == Family::map && family_supports(spec); }

}  // namespace tessera::compose_impl
