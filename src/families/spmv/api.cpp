// The public spmv API's body in CUDA builds: validation, memory kinds,
// preparation of the format variants, workspace, dispatch. api_cpu.cpp
// serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "core/device_memory.hpp"
#include "families/spmv/api_common.hpp"
#include "families/spmv/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::spmv_impl {

namespace {

using api::AsyncScratch;

void check_memory(const SpmvVariant& v, const SpmvSpec& s, const CsrArrays& a, const void* x, const void* y) {
  const Backend b = v.info.backend;
  const std::string_view name = v.info.name;
  if (a.row_offsets) api::require_memory(b, a.row_offsets, "row_offsets", API_NAME, name);
  if (s.nnz > 0) {
    api::require_memory(b, a.col_indices, "col_indices", API_NAME, name);
    api::require_memory(b, a.values, "values", API_NAME, name);
  }
  if (s.cols > 0) api::require_memory(b, x, "x", API_NAME, name);
  if (s.rows > 0) api::require_memory(b, y, "y", API_NAME, name);
}

// validate_structure on device arrays: a kernel each, then the two values
// around a bad offset for the message.
void check_structure_device(const SpmvSpec& s, const CsrArrays& a, cudaStream_t stream) {
  if (a.row_offsets == nullptr) {
    require(s.nnz == 0, fmt::format("{}: rows = 0 but nnz = {}", API_NAME, s.nnz));
    return;
  }
  const std::int64_t r = device_first_bad_offset(a.row_offsets, s.rows, s.nnz, stream);
  if (r >= 0) {
    std::int64_t pair[2] = {0, 0};
    const std::int64_t from = r > 0 ? r - 1 : 0;
    TESSERA_CUDA(cudaMemcpy(pair, a.row_offsets + from, std::size_t(r - from + 1) * 8, cudaMemcpyDeviceToHost));
    bad_offset(r, pair[0], pair[r - from], s, API_NAME);
  }
  const std::int64_t k = device_first_bad_column(a.col_indices, s.nnz, s.cols, stream);
  if (k >= 0) {
    std::int32_t c = 0;
    TESSERA_CUDA(cudaMemcpy(&c, a.col_indices + k, 4, cudaMemcpyDeviceToHost));
    bad_column(k, c, s, API_NAME);
  }
}

}  // namespace

void spmv_entry(const SpmvSpec& spec, const CsrArrays& a, const void* x, void* y, const SpmvOptions& o) {
  const SpmvVariant& v = resolve(spec, o.variant, API_NAME);
  check_pointers(spec, a, x, y, API_NAME);
  api::require_runnable(v.info.backend, API_NAME, v.info.name);
  check_memory(v, spec, a, x, y);
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  if (v.info.backend == Backend::cpu) {
    if (o.validate_structure) check_structure_host(spec, a, API_NAME);
    const bool given = o.workspace.ptr != nullptr;
    require(!given || o.workspace.bytes >= ws_bytes,
            fmt::format("{}: the workspace holds {} B but this call needs {} B", API_NAME, o.workspace.bytes, ws_bytes));
    if (spec.rows == 0) return;
    std::vector<unsigned char> own(given ? 0 : ws_bytes);
    api::wait_for_stream(o.stream);
    v.run({spec, a, x, y, o.alpha, o.beta, nullptr, given ? o.workspace.ptr : own.data(), o.stream});
    return;
  }
  if (o.validate_structure) check_structure_device(spec, a, o.stream);
  AsyncScratch ws(ws_bytes, o.workspace, o.stream, API_NAME);
  if (spec.rows == 0) return;
  std::unique_ptr<SpmvPlan> plan;
  // The format (or the vendor's descriptor) for this call: COO, ELL and HYB
  // convert on the GPU, JDS and the sliced formats via the host.
  if (v.prepare != nullptr) plan = v.prepare({spec, CsrArrays{}, a, o.stream});
  v.run({spec, a, x, y, o.alpha, o.beta, plan.get(), ws.get(), o.stream});
  // The plan's device memory must outlive the kernels that read it.
  if (plan) TESSERA_CUDA(cudaStreamSynchronize(o.stream));
}

std::size_t spmv_entry_workspace(const SpmvSpec& spec, const SpmvOptions& o) {
  return resolve(spec, o.variant, WORKSPACE_QUERY).workspace_bytes(spec);
}

}  // namespace tessera::spmv_impl

#endif  // TESSERA_HAVE_CUDA
