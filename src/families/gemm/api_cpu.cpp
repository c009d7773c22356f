// Public GEMM API in CPU-only builds: pointers are host pointers and the CPU
// rungs run.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include <vector>

#include "families/gemm/api_common.hpp"

namespace tessera {

std::string gemm_default_variant(std::size_t, std::size_t, std::size_t) { return "cpu_openmp"; }
std::string gemm_aat_default_variant(std::size_t, std::size_t) { return "cpu_openmp"; }

namespace {
void run(const gemm_impl::ApiCall& api, stream_t stream) {
  gemm_impl::GemmCall call = api.call;
  call.stream = stream;
  std::vector<unsigned char> ws(api.variant->workspace_bytes(call.spec));
  call.workspace = ws.data();
  api.variant->run(call);
}
}  // namespace

void gemm(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* A, std::size_t lda, const float* B,
          std::size_t ldb, float beta, float* C, std::size_t ldc, const GemmOptions& options) {
  run(gemm_impl::validate(gemm_impl::ab_spec(m, n, k, lda, ldb, ldc), alpha, A, B, beta, C, options.variant,
                          gemm_default_variant(m, n, k)),
      options.stream);
}

void gemm_aat(std::size_t m, std::size_t k, float alpha, const float* A, std::size_t lda, float beta, float* C,
              std::size_t ldc, const GemmOptions& options) {
  run(gemm_impl::validate(gemm_impl::aat_spec(m, k, lda, ldc), alpha, A, nullptr, beta, C, options.variant,
                          gemm_aat_default_variant(m, k)),
      options.stream);
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
