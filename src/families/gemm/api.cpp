// Public GEMM API (CUDA builds): validation, memory kinds, workspace, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/gemm/api_common.hpp"
#include "families/gemm/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using api::AsyncScratch;
using api::Memory;
using api::memory_of;
using gemm_impl::ApiCall;
using gemm_impl::GemmCall;

// Every non-empty matrix must live where the variant runs.
void check_memory(const ApiCall& api) {
  const GemmCall& call = api.call;
  const auto& s = call.spec;
  const auto& v = *api.variant;
  const Memory want = v.info.backend == Backend::cpu ? Memory::host : Memory::device;
  const char* where = want == Memory::host ? "host" : "device";
  auto require_kind = [&](const void* p, bool empty, const char* name) {
    if (!empty)
      require(memory_of(p) == want, fmt::format("{}: {} must point to {} memory for variant '{}'",
                                                gemm_impl::api_name(s.op), name, where, v.info.name));
  };
  require_kind(call.a, s.m == 0 || s.k == 0, "A");
  if (s.op == gemm_impl::GemmOp::ab) require_kind(call.b, s.k == 0 || s.n == 0, "B");
  require_kind(call.c, s.m == 0 || s.n == 0, "C");
}

void run(const ApiCall& api, cudaStream_t stream) {
  check_memory(api);
  const auto& v = *api.variant;
  GemmCall call = api.call;
  call.stream = stream;
  const std::size_t ws_bytes = v.workspace_bytes(call.spec);
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    TESSERA_CUDA(cudaStreamSynchronize(stream));  // CPU variants run in stream order
    call.workspace = ws.data();
    v.run(call);
    return;
  }
  AsyncScratch ws(ws_bytes, stream, gemm_impl::api_name(call.spec.op));
  call.workspace = ws.get();
  v.run(call);
  // A lower-triangle result (the vendor SYRK) completed to the symmetric C.
  if (v.fill == gemm_impl::Fill::lower) gemm_impl::mirror_lower_to_upper(call.c, call.spec.m, call.spec.ldc, stream);
}

}  // namespace

// The warp-tiled kernel chooses its tile configuration by size itself
// (10_warp_tiled_dispatch.cu); every other rung is slower at every size.
std::string gemm_default_variant(std::size_t, std::size_t, std::size_t) { return "warp_tiled"; }
std::string gemm_aat_default_variant(std::size_t, std::size_t) { return "aat_warp_tiled"; }

void gemm(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* A, std::size_t lda, const float* B,
          std::size_t ldb, float beta, float* C, std::size_t ldc, const GemmOptions& options) {
  const auto call = gemm_impl::validate(gemm_impl::ab_spec(m, n, k, lda, ldb, ldc), alpha, A, B, beta, C,
                                        options.variant, gemm_default_variant(m, n, k));
  run(call, options.stream);
}

void gemm_aat(std::size_t m, std::size_t k, float alpha, const float* A, std::size_t lda, float beta, float* C,
              std::size_t ldc, const GemmOptions& options) {
  const auto call = gemm_impl::validate(gemm_impl::aat_spec(m, k, lda, ldc), alpha, A, nullptr, beta, C,
                                        options.variant, gemm_aat_default_variant(m, k));
  run(call, options.stream);
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
