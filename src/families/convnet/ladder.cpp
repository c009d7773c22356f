// The convnet ladder, one line per variant: the only place a variant's name,
// step, role and `adds` are written. CPU rungs, then the CUDA rungs and the
// vendor baseline (CUDA builds only).
#include <fmt/format.h>

#include <climits>
#include <span>

#include "families/convnet/contract.hpp"
#include "families/convnet/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/convnet/cuda_rungs.hpp"
#endif

namespace tessera::conv_impl {

ConvSpec make_spec(const ConvShape& s) {
  ConvSpec spec{s.n, s.c, s.h, s.w, s.m, s.k, std::size_t(s.pad < 0 ? 0 : s.pad), s.stride, 0, 0};
  if (s.stride > 0 && s.k <= s.h + 2 * spec.pad && s.k <= s.w + 2 * spec.pad) {
    spec.ho = (s.h + 2 * spec.pad - s.k) / s.stride + 1;
    spec.wo = (s.w + 2 * spec.pad - s.k) / s.stride + 1;
  }
  return spec;
}

std::string describe(const ConvSpec& s) {
  std::string d = fmt::format("n{} c{} {}x{} -> m{} k{}", s.n, s.c, s.h, s.w, s.m, s.k);
  if (s.stride != 1) d += fmt::format(" s{}", s.stride);
  if (s.pad != 0) d += fmt::format(" p{}", s.pad);
  return d;
}

bool fits_int32(const ConvSpec& s) {
  constexpr std::size_t LIMIT = std::size_t(INT_MAX);
  return s.x_elems() < LIMIT && s.w_elems() < LIMIT && s.y_elems() < LIMIT && s.n * s.pixels() < LIMIT;
}

namespace {

using namespace ladder::roles;

bool any_shape(const ConvSpec&) { return true; }
std::size_t no_workspace(const ConvSpec&) { return 0; }

#if TESSERA_HAVE_CUDA
#define TESSERA_RUNG(name) fits_int32, no_workspace, nullptr, run_##name
#endif

const ConvVariant TABLE[] = {
    {{"convnet", "cpu_reference", 0, CPU, REFERENCE, "serial loops over n, m, c, kh, kw, ho, wo, accumulating in double (seed 000 ConvNet: the C code)", true}, any_shape, no_workspace, nullptr, cpu::run_reference},
    {{"convnet", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP over the n*m output planes (the seed's parallel-for loops), float accumulation vectorised along output rows", true}, any_shape, no_workspace, nullptr, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"convnet", "direct", 2, CUDA, TAUGHT, "one thread per output y[n,m,h,w] running the c, p, q loops from global memory (seed 000 ConvNet: forward path CUDA)", true}, TESSERA_RUNG(direct)},
    {{"convnet", "shared_tiled", 3, CUDA, TAUGHT, "16x16 output tile per block; per channel the input patch and the k x k filter in shared memory (seed 000 ConvNet: reduce global memory)", true}, supports_shared_tiled, no_workspace, nullptr, run_shared_tiled},
    {{"convnet", "im2col_gemm", 4, CUDA, TAUGHT, "unrolled input of one image at a time (reused buffer) times the filter bank with tessera::gemm (seed 000 ConvNet: forward path as GEMM)", true}, fits_int32, ws_im2col_gemm, nullptr, run_im2col_gemm},
    {{"convnet", "implicit_gemm", 5, CUDA, PRODUCT, "GEMM tiles with the unrolled tile gathered straight into shared memory, double buffered, 8x8 register tiles, split-k for small grids (seed 000 ConvNet: cuDNN's lazy generation)", true}, fits_int32, ws_implicit_gemm, nullptr, run_implicit_gemm},
    {{"convnet", "winograd_f2x3", 6, CUDA, PRODUCT, "Winograd F(2x2,3x3): filter and input transforms, 16 tessera::gemm calls, output transform; 2.25x fewer multiply-adds, k = 3 stride 1 only (seed 000 ConvNet: cuDNN's Winograd)", true}, supports_winograd_f2x3, ws_winograd_f2x3, nullptr, run_winograd_f2x3},
    {{"convnet", "cudnn", 7, CUDA, VENDOR, "cudnnConvolutionForward, FP32 FMA math (no TF32), the fastest algorithm cudnnFindConvolutionForwardAlgorithm finds, once per shape outside timing (vendor baseline)", false}, supports_cudnn, ws_cudnn, prepare_cudnn, run_cudnn},
    {{"convnet", "winograd_fused", 8, CUDA, PRODUCT, "Winograd F(2x2,3x3) in one kernel: input transform while loading 4x4 patches into shared memory, the 16 products as 8x8 register tiles, output transform in the epilogue; no transformed input or products in memory, k = 3 stride 1 only (seed 000 ConvNet: cuDNN's Winograd)", true}, supports_winograd_fused, ws_winograd_fused, nullptr, run_winograd_fused},
    {{"convnet", "winograd_f4x3", 9, CUDA, PRODUCT, "Winograd F(4x4,3x3): filter and input transforms (6x6 tiles, stride 4), the 36 products as one batched launch of tessera's GEMM kernel, output transform; 4x fewer multiply-adds, k = 3 stride 1 only (seed 000 ConvNet: cuDNN's WINOGRAD_NONFUSED)", true}, supports_winograd_f4x3, ws_winograd_f4x3, nullptr, run_winograd_f4x3},
    {{"convnet", "resident_image", 10, CUDA, PRODUCT, "small layers: one block per (image, filter group, row band) stages the input rows and the filters in shared memory once; each thread G filters x R pixels in registers over a slice of the channels, slices added in shared memory; one launch, no workspace", true}, supports_resident_image, no_workspace, nullptr, run_resident_image},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<ConvVariant>& variants_ladder() {
  static ladder::Ladder<ConvVariant> ladder{std::span<const ConvVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::conv_impl
