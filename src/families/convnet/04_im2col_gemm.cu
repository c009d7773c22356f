// Step 4 — forward path as GEMM (seed 000 "ConvNet", "Forward path as
// GEMM"): unroll the input of one image into a (c*k*k) x (ho*wo) matrix whose
// column p holds every input value output pixel p needs, then
// y_n (m x ho*wo) = w (m x c*k*k, the filter bank as stored) * unrolled x_n
// with tessera::gemm (row-major, N, N). As the seed suggests, one image's
// unrolled matrix is kept at a time and the buffer reused for the next image
// ("reduce memory footprint"), so the workspace is c*k*k*ho*wo floats plus
// the GEMM's own scratch.
//
// What it changes over step 3: the arithmetic runs in a register-blocked
// GEMM at a large fraction of the FP32 rate. What it costs: the unrolled
// matrix is up to k*k times the input (the expansion ratio) and is written
// and read back through memory, and small images give small GEMMs (one
// launch pair per image: batch 64 is 128 launches).
#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/gemm.hpp"

namespace tessera::conv_impl {

namespace {

constexpr int THREADS = 256;
constexpr std::size_t ALIGN = 256;  // the GEMM's scratch starts on a 256-byte boundary

std::size_t unrolled_bytes(const ConvSpec& s) {
  return (s.gemm_k() * s.pixels() * sizeof(float) + ALIGN - 1) / ALIGN * ALIGN;
}

// One thread per element of the unrolled matrix, row r = (c, kh, kw),
// column p = (ho, wo): consecutive threads write consecutive columns.
__global__ void __launch_bounds__(THREADS) conv_im2col_kernel(ConvGeom g, const float* __restrict__ x_n,
                                                              float* __restrict__ unrolled) {
  const int P = g.pixels();
  const long long total = static_cast<long long>(g.gemm_k()) * P;
  for (long long i = blockIdx.x * static_cast<long long>(THREADS) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * THREADS) {
    const int r = static_cast<int>(i / P), p = static_cast<int>(i % P);
    const int c = r / (g.k * g.k), kh = r / g.k % g.k, kw = r % g.k;
    const int hi = p / g.wo * g.stride - g.pad + kh, wi = p % g.wo * g.stride - g.pad + kw;
    unrolled[i] = (hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) ? x_n[(static_cast<long long>(c) * g.h + hi) * g.w + wi]
                                                              : 0.0f;
  }
}

}  // namespace

std::size_t ws_im2col_gemm(const ConvSpec& s) {
  return unrolled_bytes(s) + gemm_workspace_bytes(s.m, s.pixels(), s.gemm_k());
}

void run_im2col_gemm(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const ConvGeom g = geom_of(s);
  auto* unrolled = static_cast<float*>(call.workspace);
  const std::size_t gemm_ws = gemm_workspace_bytes(s.m, s.pixels(), s.gemm_k());
  GemmOptions gemm_options;
  gemm_options.stream = call.stream;
  gemm_options.workspace = {static_cast<unsigned char*>(call.workspace) + unrolled_bytes(s), gemm_ws};
  const std::size_t total = s.gemm_k() * s.pixels();
  const std::size_t blocks = std::min<std::size_t>(detail::div_up(total, THREADS), 65536);
  for (std::size_t n = 0; n < s.n; ++n) {
    // The next image's unroll waits (stream order) for this image's GEMM.
    detail::launch("conv_im2col_kernel", conv_im2col_kernel, dim3(unsigned(blocks)), dim3(THREADS), 0, call.stream,
                   total, g, call.x + n * s.c * s.h * s.w, unrolled);
    gemm(call.w, unrolled, s.m, s.pixels(), s.gemm_k(), call.y + n * s.m * s.pixels(), gemm_options);
  }
}

}  // namespace tessera::conv_impl
