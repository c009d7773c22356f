// Public GEMM API: validation (api_common.hpp), the variant (options.variant
// or policy.hpp's), memory kinds, workspace, dispatch. CPU-only builds run
// the cpu_ rungs on host pointers.
#include <string>
#include <vector>

#include "core/gpu_present.hpp"
#include "families/gemm/api_common.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "core/device_memory.hpp"
#include "families/gemm/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera {

namespace {

using gemm_impl::ApiCall;
using gemm_impl::GemmCall;
using gemm_impl::GemmOp;

#if TESSERA_HAVE_CUDA
using api::AsyncScratch;

// Every non-empty matrix must live where the variant runs.
void check_memory(const ApiCall& api) {
  const GemmCall& call = api.call;
  const auto& s = call.spec;
  const auto& v = *api.variant;
  auto require_kind = [&](const void* p, bool empty, const char* name) {
    if (!empty) api::require_memory(v.info.backend, p, name, gemm_impl::api_name(s.op), v.info.name);
  };
  require_kind(call.a, s.m == 0 || s.k == 0, api.swapped ? "B" : "A");
  if (s.op == GemmOp::ab) require_kind(call.b, s.k == 0 || s.n == 0, api.swapped ? "A" : "B");
  require_kind(call.c, s.m == 0 || s.n == 0, "C");
}
#endif

void run(const ApiCall& api, const GemmOptions& options) {
  const auto& v = *api.variant;
  GemmCall call = api.call;
  call.stream = options.stream;
  const char* who = gemm_impl::api_name(call.spec.op);
  const std::size_t ws_bytes = v.workspace_bytes(call.spec);
#if TESSERA_HAVE_CUDA
  check_memory(api);
  if (v.info.backend == Backend::cuda) {
    AsyncScratch ws(ws_bytes, options.workspace, options.stream, who);
    call.workspace = ws.get();
    v.run(call);
    // A lower-triangle result (the vendor SYRK) completed to the symmetric C.
    if (v.fill == gemm_impl::Fill::lower)
      gemm_impl::mirror_lower_to_upper(call.c, call.spec.m, call.spec.ldc, options.stream);
    return;
  }
  api::wait_for_stream(options.stream);
#endif
  std::vector<unsigned char> own;
  call.workspace = gemm_impl::host_scratch(ws_bytes, options.workspace, own, who);
  v.run(call);
}

}  // namespace

std::string gemm_default_variant(std::size_t, std::size_t, std::size_t) {
  return std::string(gemm_impl::policy::default_variant(GemmOp::ab, api::gpu_present()));
}
std::string gemm_aat_default_variant(std::size_t, std::size_t) {
  return std::string(gemm_impl::policy::default_variant(GemmOp::aat, api::gpu_present()));
}

std::size_t gemm_workspace_bytes(std::size_t m, std::size_t n, std::size_t k, const GemmOptions& options) {
  const auto spec = gemm_impl::ab_spec(m, n, k, options);
  return gemm_impl::variant_for(spec, options.variant).workspace_bytes(spec);
}

std::size_t gemm_aat_workspace_bytes(std::size_t m, std::size_t k, const GemmOptions& options) {
  const auto spec = gemm_impl::aat_spec(m, k, options);
  return gemm_impl::variant_for(spec, options.variant).workspace_bytes(spec);
}

void gemm(const float* A, const float* B, std::size_t m, std::size_t n, std::size_t k, float* C,
          const GemmOptions& options) {
  run(gemm_impl::validate(gemm_impl::ab_spec(m, n, k, options), A, B, C, options), options);
}

void gemm_aat(const float* A, std::size_t m, std::size_t k, float* C, const GemmOptions& options) {
  run(gemm_impl::validate(gemm_impl::aat_spec(m, k, options), A, nullptr, C, options), options);
}

}  // namespace tessera
