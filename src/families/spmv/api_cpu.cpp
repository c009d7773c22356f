// The public spmv API's body in CPU-only builds: pointers are host pointers
// and the CPU rungs run. api.cpp serves CUDA builds.
#if !TESSERA_HAVE_CUDA
#include <chrono>
#include <vector>

#include "families/spmv/api_common.hpp"

namespace tessera::spmv_impl {

void spmv_entry(const SpmvSpec& spec, const CsrArrays& a, const void* x, void* y, const SpmvOptions& o) {
  const SpmvVariant& v = resolve(spec, o.variant, API_NAME);
  check_pointers(spec, a, x, y, API_NAME);
  if (o.validate_structure) check_structure_host(spec, a, API_NAME);
  const std::size_t need = v.workspace_bytes(spec);
  const bool given = o.workspace.ptr != nullptr;
  require(!given || o.workspace.bytes >= need,
          fmt::format("{}: the workspace holds {} B but this call needs {} B", API_NAME, o.workspace.bytes, need));
  if (spec.rows == 0) return;
  std::vector<unsigned char> own(given ? 0 : need);
  v.run({spec, a, x, y, o.alpha, o.beta, nullptr, given ? o.workspace.ptr : own.data(), o.stream});
}

std::size_t spmv_entry_workspace(const SpmvSpec& spec, const SpmvOptions& o) {
  return resolve(spec, o.variant, WORKSPACE_QUERY).workspace_bytes(spec);
}

// Without a GPU the plan is the CPU rung on the host arrays: nothing to convert.
void plan_entry_build(PlanState& p, const SpmvOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  check_shape(p.spec, PLAN_NAME);
  check_matrix_pointers(p.spec, p.arrays, PLAN_NAME);
  if (o.validate_structure) check_structure_host(p.spec, p.arrays, PLAN_NAME);
  p.stats = host_row_stats(p.spec, p.arrays);
  p.variant = &resolve_plan(p.spec, p.stats, o.variant, false, p.reason, PLAN_NAME);
  p.name = p.variant->info.name;
  p.prepare_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void plan_entry_run(const PlanState& p, const void* x, void* y, const SpmvOptions& o) {
  const std::size_t need = p.variant->workspace_bytes(p.spec);
  check_plan_run(p, x, y, o, need);
  if (p.spec.rows == 0) return;
  std::vector<unsigned char> own(o.workspace.ptr ? 0 : need);
  p.variant->run({p.spec, p.arrays, x, y, o.alpha, o.beta, nullptr, o.workspace.ptr ? o.workspace.ptr : own.data(),
                  o.stream});
}

}  // namespace tessera::spmv_impl

#endif  // !TESSERA_HAVE_CUDA
