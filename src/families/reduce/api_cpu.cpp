// Public reduce API in CPU-only builds: pointers are host pointers and the
// CPU rungs run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/reduce/api_common.hpp"

namespace tessera {

std::string reduce_default_variant(Dtype, Op, Accum, std::size_t) { return "cpu_openmp"; }

template <class T>
void reduce_into(const T* d_in, std::size_t n, Op op, reduce_result_t<T>* d_out, const ReduceOptions& options) {
  const reduce_impl::ReduceSpec spec{dtype_of<T>(), op, options.accum, n};
  const auto& v = reduce_impl::resolve(spec, options.variant, d_in, d_out);
  v.run({spec, d_in, d_out, nullptr, options.stream});
}

template <class T>
reduce_result_t<T> reduce(const T* d_in, std::size_t n, Op op, const ReduceOptions& options) {
  reduce_result_t<T> result{};
  reduce_into(d_in, n, op, &result, options);
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

#endif  // !TESSERA_HAVE_CUDA
