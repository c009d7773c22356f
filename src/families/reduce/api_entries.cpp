// The public reduce templates (include/tessera/reduce.hpp) for the four
// element types, over the build's reduce_entry (api.cpp with CUDA, api_cpu.cpp
// without), and the default variant from policy.hpp.
#include <cstdint>

#include "families/reduce/api_common.hpp"

namespace tessera {

std::string reduce_default_variant(Dtype type, Op op, Accum accum, std::size_t n) {
  return std::string(reduce_impl::policy_pick({type, op, accum, n}));
}

template <class T>
reduce_result_t<T> reduce(const T* d_in, std::size_t n, const ReduceOptions& options) {
  reduce_result_t<T> result{};
  reduce_impl::reduce_entry(dtype_of<T>(), d_in, n, &result, true, options);
  return result;
}

template <class T>
void reduce_into(const T* d_in, std::size_t n, reduce_result_t<T>* d_out, const ReduceOptions& options) {
  reduce_impl::reduce_entry(dtype_of<T>(), d_in, n, d_out, false, options);
}

template <class T>
std::size_t reduce_workspace_bytes(std::size_t n, const ReduceOptions& options) {
  return reduce_impl::reduce_entry_workspace(dtype_of<T>(), n, options);
}

#define TESSERA_INSTANTIATE(T)                                                                         \
  template reduce_result_t<T> reduce<T>(const T*, std::size_t, const ReduceOptions&);                 \
  template void reduce_into<T>(const T*, std::size_t, reduce_result_t<T>*, const ReduceOptions&);      \
  template std::size_t reduce_workspace_bytes<T>(std::size_t, const ReduceOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::int32_t)
TESSERA_INSTANTIATE(std::int64_t)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
