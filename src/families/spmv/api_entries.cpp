// The public spmv templates (include/tessera/spmv.hpp) for float and double,
// over the build's spmv_entry (api.cpp with CUDA, api_cpu.cpp without), and
// the default variant from policy.hpp.
#include "families/spmv/api_common.hpp"

namespace tessera {

std::string spmv_default_variant(Dtype type, std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
  return std::string(spmv_impl::policy_pick({type, rows, cols, nnz}));
}

namespace {
template <class T>
spmv_impl::SpmvSpec spec_of(const Csr<T>& a) {
  return {dtype_of<T>(), a.rows, a.cols, a.nnz};
}
template <class T>
spmv_impl::CsrArrays arrays_of(const Csr<T>& a) {
  return {a.row_offsets, a.col_indices, a.values};
}
}  // namespace

template <class T>
void spmv(const Csr<T>& a, const T* x, T* y, const SpmvOptions& options) {
  spmv_impl::spmv_entry(spec_of(a), arrays_of(a), x, y, options);
}

template <class T>
std::size_t spmv_workspace_bytes(const Csr<T>& a, const SpmvOptions& options) {
  return spmv_impl::spmv_entry_workspace(spec_of(a), options);
}

#define TESSERA_INSTANTIATE(T)                                                    \
  template void spmv<T>(const Csr<T>&, const T*, T*, const SpmvOptions&);        \
  template std::size_t spmv_workspace_bytes<T>(const Csr<T>&, const SpmvOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
