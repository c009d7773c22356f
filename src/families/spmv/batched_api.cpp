// The public spmv_batched templates (include/tessera/spmv.hpp) for float and
// double: argument checks, memory kinds, workspace, the vendor's descriptors
// when that variant is named, dispatch. CUDA builds take batched_nnz_split
// by default; CPU-only builds cpu_reference on host pointers.
#include <vector>

#include <fmt/format.h>

#include "families/spmv/batched.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "core/device_memory.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera {

namespace {

namespace b = spmv_impl::batched;
using b::API_NAME;

#if TESSERA_HAVE_CUDA
constexpr const char* DEFAULT_VARIANT = "batched_nnz_split";

template <class V>
std::vector<V> to_host(const V* p, std::int64_t n) {
  std::vector<V> out(std::size_t(n > 0 ? n : 0));
  if (n > 0) TESSERA_CUDA(cudaMemcpy(out.data(), p, std::size_t(n) * sizeof(V), cudaMemcpyDeviceToHost));
  return out;
}

// validate_structure on device arrays: copied down, checked on the host.
void check_structure_device(const b::BatchSpec& s, const b::BatchArrays& a, cudaStream_t stream) {
  if (s.count == 0) return;
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  const auto rs = to_host(a.row_starts, s.count + 1), cs = to_host(a.col_starts, s.count + 1),
             ns = to_host(a.nnz_starts, s.count + 1), off = to_host(a.row_offsets, s.rows + s.count);
  const auto col = to_host(a.col_indices, s.nnz);
  b::check_structure_host(s, {rs.data(), cs.data(), ns.data(), off.data(), col.data(), nullptr}, API_NAME);
}

void check_memory(const b::BatchVariant& v, const b::BatchSpec& s, const b::BatchArrays& a, const void* x,
                  const void* y) {
  const Backend be = v.info.backend;
  const std::string_view name = v.info.name;
  api::require_runnable(be, API_NAME, name);
  if (s.count > 0) {
    api::require_memory(be, a.row_starts, "row_starts", API_NAME, name);
    api::require_memory(be, a.col_starts, "col_starts", API_NAME, name);
    api::require_memory(be, a.nnz_starts, "nnz_starts", API_NAME, name);
    api::require_memory(be, a.row_offsets, "row_offsets", API_NAME, name);
  }
  if (s.nnz > 0) {
    api::require_memory(be, a.col_indices, "col_indices", API_NAME, name);
    api::require_memory(be, a.values, "values", API_NAME, name);
  }
  if (s.cols > 0) api::require_memory(be, x, "x", API_NAME, name);
  if (s.rows > 0) api::require_memory(be, y, "y", API_NAME, name);
}
#else
constexpr const char* DEFAULT_VARIANT = "cpu_reference";
#endif

template <class T>
b::BatchSpec spec_of(const CsrBatch<T>& a) {
  return {dtype_of<T>(), a.count, a.rows, a.cols, a.nnz};
}
template <class T>
b::BatchArrays arrays_of(const CsrBatch<T>& a) {
  return {a.row_starts, a.col_starts, a.nnz_starts, a.row_offsets, a.col_indices, a.values};
}

const b::BatchVariant& resolve(const std::string& name, const char* who) {
  return b::variant_named(name.empty() ? DEFAULT_VARIANT : name, who);
}

}  // namespace

template <class T>
void spmv_batched(const CsrBatch<T>& batch, const T* x, T* y, const SpmvOptions& o) {
  const b::BatchSpec s = spec_of(batch);
  const b::BatchArrays a = arrays_of(batch);
  const b::BatchVariant& v = resolve(o.variant, API_NAME);
  b::check_arguments(s, a, x, y, API_NAME);
  const std::size_t need = v.workspace_bytes(s);
  if (v.info.backend == Backend::cpu) {
#if TESSERA_HAVE_CUDA
    check_memory(v, s, a, x, y);
#endif
    if (o.validate_structure) b::check_structure_host(s, a, API_NAME);
    const bool given = o.workspace.ptr != nullptr;
    require(!given || o.workspace.bytes >= need,
            fmt::format("{}: the workspace holds {} B but this call needs {} B", API_NAME, o.workspace.bytes, need));
    if (s.rows == 0) return;
#if TESSERA_HAVE_CUDA
    api::wait_for_stream(static_cast<cudaStream_t>(o.stream));
#endif
    v.run({s, a, x, y, o.alpha, o.beta, nullptr, nullptr, o.stream});
    return;
  }
#if TESSERA_HAVE_CUDA
  check_memory(v, s, a, x, y);
  const auto stream = static_cast<cudaStream_t>(o.stream);
  if (o.validate_structure) check_structure_device(s, a, stream);
  api::AsyncScratch ws(need, o.workspace, stream, API_NAME);
  if (s.rows == 0) return;
  std::unique_ptr<b::BatchPlan> plan;
  if (v.prepare != nullptr) plan = v.prepare(s, b::BatchArrays{}, a, o.stream);
  v.run({s, a, x, y, o.alpha, o.beta, plan.get(), ws.get(), o.stream});
  // The plan's descriptors and buffer must outlive the calls that use them.
  if (plan) TESSERA_CUDA(cudaStreamSynchronize(stream));
#endif
}

template <class T>
std::size_t spmv_batched_workspace_bytes(const CsrBatch<T>& batch, const SpmvOptions& o) {
  return resolve(o.variant, "tessera::spmv_batched_workspace_bytes").workspace_bytes(spec_of(batch));
}

#define TESSERA_INSTANTIATE(T)                                                        \
  template void spmv_batched<T>(const CsrBatch<T>&, const T*, T*, const SpmvOptions&); \
  template std::size_t spmv_batched_workspace_bytes<T>(const CsrBatch<T>&, const SpmvOptions&);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
