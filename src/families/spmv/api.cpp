// The public spmv API's body in CUDA builds: validation, memory kinds,
// preparation of the format variants, workspace, dispatch. api_cpu.cpp
// serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <chrono>
#include <memory>
#include <vector>

#include "core/device_memory.hpp"
#include "families/spmv/api_common.hpp"
#include "families/spmv/convert.hpp"
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
  if (s.cols > 0 && x != nullptr) api::require_memory(b, x, "x", API_NAME, name);  // null: a plan (no vectors yet)
  if (s.rows > 0 && y != nullptr) api::require_memory(b, y, "y", API_NAME, name);
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

// A plan: the statistics where the arrays live (the histogram kernel on the
// device, a loop on the host), the pick, and the conversion, once.
void plan_entry_build(PlanState& p, const SpmvOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const SpmvSpec& s = p.spec;
  check_shape(s, PLAN_NAME);
  check_matrix_pointers(s, p.arrays, PLAN_NAME);
  const SpmvVariant* named = o.variant.empty() ? nullptr : &resolve(s, o.variant, PLAN_NAME);
  // Unnamed, the plan runs where the arrays live: host arrays take the CPU
  // variants even where a GPU is present.
  const bool on_gpu = named ? named->info.backend != Backend::cpu
                            : api::gpu_present() && p.arrays.row_offsets != nullptr &&
                                  api::memory_of(p.arrays.row_offsets) == api::Memory::device;
  const auto stream = static_cast<cudaStream_t>(o.stream);
  if (on_gpu) {
    // The statistics kernel reads the offsets before any variant is chosen.
    if (p.arrays.row_offsets)
      api::require_memory(Backend::cuda, p.arrays.row_offsets, "row_offsets", PLAN_NAME, "(the plan's statistics)");
    if (o.validate_structure) check_structure_device(s, p.arrays, o.stream);
    p.stats = row_length_stats(gpu::device_row_stats(s, p.arrays, o.stream), s.rows, s.nnz);
  } else {
    if (o.validate_structure) check_structure_host(s, p.arrays, PLAN_NAME);
    p.stats = host_row_stats(s, p.arrays);
  }
  p.variant = &resolve_plan(s, p.stats, o.variant, on_gpu, p.reason, PLAN_NAME);
  p.name = p.variant->info.name;
  api::require_runnable(p.variant->info.backend, PLAN_NAME, p.variant->info.name);
  check_memory(*p.variant, s, p.arrays, nullptr, nullptr);
  if (s.rows > 0 && p.variant->prepare != nullptr) {
    p.prepared = p.variant->prepare({s, CsrArrays{}, p.arrays, o.stream});
    TESSERA_CUDA(cudaStreamSynchronize(stream));
  }
  p.prepare_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void plan_entry_run(const PlanState& p, const void* x, void* y, const SpmvOptions& o) {
  const SpmvVariant& v = *p.variant;
  const std::size_t ws_bytes = v.workspace_bytes(p.spec);
  check_plan_run(p, x, y, o, ws_bytes);
  if (p.spec.cols > 0) api::require_memory(v.info.backend, x, "x", PLAN_RUN_NAME, v.info.name);
  if (p.spec.rows > 0) api::require_memory(v.info.backend, y, "y", PLAN_RUN_NAME, v.info.name);
  if (v.info.backend == Backend::cpu) {
    if (p.spec.rows == 0) return;
    std::vector<unsigned char> own(o.workspace.ptr ? 0 : ws_bytes);
    api::wait_for_stream(o.stream);
    v.run({p.spec, p.arrays, x, y, o.alpha, o.beta, nullptr, o.workspace.ptr ? o.workspace.ptr : own.data(),
           o.stream});
    return;
  }
  AsyncScratch ws(ws_bytes, o.workspace, o.stream, PLAN_RUN_NAME);
  if (p.spec.rows == 0) return;
  v.run({p.spec, p.arrays, x, y, o.alpha, o.beta, p.prepared.get(), ws.get(), o.stream});
}

}  // namespace tessera::spmv_impl

#endif  // TESSERA_HAVE_CUDA
