// Public reduce API (CUDA builds): validation, workspace, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/reduce/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using api::AsyncScratch;
using api::Memory;
using api::memory_of;

void run_checked(const reduce_impl::ReduceVariant& v, const reduce_impl::ReduceSpec& spec, const void* in, void* out,
                 cudaStream_t stream) {
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    TESSERA_CUDA(cudaStreamSynchronize(stream));  // CPU variants run in stream order
    v.run({spec, in, out, ws.data(), stream});
    return;
  }
  AsyncScratch ws(ws_bytes, stream, "tessera::reduce");
  v.run({spec, in, out, ws.get(), stream});
}

void check_memory(const reduce_impl::ReduceVariant& v, const void* in, std::size_t n, const void* out) {
  const Memory want = v.info.backend == Backend::cpu ? Memory::host : Memory::device;
  const char* where = want == Memory::host ? "host" : "device";
  if (n > 0)
    require(memory_of(in) == want,
            fmt::format("tessera::reduce: d_in must point to {} memory for variant '{}'", where, v.info.name));
  require(memory_of(out) == want,
          fmt::format("tessera::reduce: d_out must point to {} memory for variant '{}'", where, v.info.name));
}

}  // namespace

std::string reduce_default_variant(Dtype, Op, Accum, std::size_t) {
  // single_pass is fastest on the H100 for every type, operator and size
  // measured (docs/reduce.md, docs/results/): one launch, 16-byte loads.
  return "single_pass";
}

template <class T>
void reduce_into(const T* d_in, std::size_t n, Op op, reduce_result_t<T>* d_out, const ReduceOptions& options) {
  const reduce_impl::ReduceSpec spec{dtype_of<T>(), op, options.accum, n};
  const auto& v = reduce_impl::resolve(spec, options.variant, d_in, d_out);
  check_memory(v, d_in, n, d_out);
  run_checked(v, spec, d_in, d_out, options.stream);
}

template <class T>
reduce_result_t<T> reduce(const T* d_in, std::size_t n, Op op, const ReduceOptions& options) {
  const reduce_impl::ReduceSpec spec{dtype_of<T>(), op, options.accum, n};
  using R = reduce_result_t<T>;
  R result{};
  // Validate before allocating anything (the output is ours here).
  const auto& v = reduce_impl::resolve(spec, options.variant, d_in, &result);
  if (v.info.backend == Backend::cpu) {
    check_memory(v, d_in, n, &result);
    run_checked(v, spec, d_in, &result, options.stream);
    return result;
  }
  if (n > 0)
    require(memory_of(d_in) == Memory::device,
            fmt::format("tessera::reduce: d_in must point to device memory for variant '{}'", v.info.name));
  {
    AsyncScratch out(sizeof(R), options.stream, "tessera::reduce");
    run_checked(v, spec, d_in, out.get(), options.stream);
    TESSERA_CUDA(cudaMemcpyAsync(&result, out.get(), sizeof(R), cudaMemcpyDeviceToHost, options.stream));
  }
  TESSERA_CUDA(cudaStreamSynchronize(options.stream));
  return result;
}

#define TESSERA_INSTANTIATE(T)                                                                           \
  template reduce_result_t<T> reduce<T>(const T*, std::size_t, Op, const ReduceOptions&);               \
  template void reduce_into<T>(const T*, std::size_t, Op, reduce_result_t<T>*, const ReduceOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::int32_t)
TESSERA_INSTANTIATE(std::int64_t)
#undef TESSERA_INSTANTIATE

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
