// The public spmv templates (include/tessera/spmv.hpp) for float and double,
// over the build's spmv_entry (api.cpp with CUDA, api_cpu.cpp without), and
// the default variant from policy.hpp.
#include "families/spmv/api_common.hpp"

#include <memory>

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

// ---- Plans (spmv_impl::PlanState: api_common.hpp; the build's
// plan_entry_build / plan_entry_run).
template <class T>
SpmvPlan<T>::SpmvPlan(const Csr<T>& a, const SpmvOptions& options)
    : matrix_(a), state_(std::make_unique<spmv_impl::PlanState>()) {
  state_->spec = spec_of(a);
  state_->arrays = arrays_of(a);
  spmv_impl::plan_entry_build(*state_, options);
}
template <class T>
SpmvPlan<T>::~SpmvPlan() = default;
template <class T>
SpmvPlan<T>::SpmvPlan(SpmvPlan&&) noexcept = default;
template <class T>
SpmvPlan<T>& SpmvPlan<T>::operator=(SpmvPlan&&) noexcept = default;

template <class T>
const std::string& SpmvPlan<T>::variant() const { return state_->name; }
template <class T>
const std::string& SpmvPlan<T>::reason() const { return state_->reason; }
template <class T>
const SpmvRowStats& SpmvPlan<T>::row_stats() const { return state_->stats; }
template <class T>
std::size_t SpmvPlan<T>::footprint_bytes() const { return state_->prepared ? state_->prepared->footprint_bytes : 0; }
template <class T>
double SpmvPlan<T>::prepare_ms() const { return state_->prepare_ms; }

template <class T>
void spmv(const SpmvPlan<T>& plan, const T* x, T* y, const SpmvOptions& options) {
  spmv_impl::plan_entry_run(plan.state(), x, y, options);
}

template <class T>
SpmvRowStats spmv_row_stats_host(const Csr<T>& a) {
  return spmv_impl::host_row_stats(spec_of(a), arrays_of(a));
}

std::string spmv_plan_variant(Dtype type, std::int64_t cols, const SpmvRowStats& stats, bool gpu) {
  const spmv_impl::SpmvSpec spec{type, stats.rows, cols, stats.nnz};
  std::string reason;
  return std::string(spmv_impl::resolve_plan(spec, stats, "", gpu, reason, "tessera::spmv_plan_variant").info.name);
}

#define TESSERA_INSTANTIATE(T)                                                    \
  template void spmv<T>(const Csr<T>&, const T*, T*, const SpmvOptions&);        \
  template std::size_t spmv_workspace_bytes<T>(const Csr<T>&, const SpmvOptions&); \
  template class SpmvPlan<T>;                                                      \
  template void spmv<T>(const SpmvPlan<T>&, const T*, T*, const SpmvOptions&);   \
  template SpmvRowStats spmv_row_stats_host<T>(const Csr<T>&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
