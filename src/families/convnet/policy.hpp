// Which variant tessera::conv_forward runs when options.variant is empty, as
// data: the rules in order (the first whose `applies` holds wins), each with
// the measurement that chose it. conv_forward_default_variant() reads them;
// docs/convnet.md says the same in prose.
//
// Measured on an H100 (tessera bench convnet, /work/notes/gpu-r1 results of
// 2026-11-28, bench-convnet.txt): shared_tiled beat implicit_gemm on the three
// LeNet layers of at most 2^24 flops (on conv2 n1 im2col_gemm measured faster
// still, in both runs: 0.0077/0.0076 ms against 0.0116; not yet a rule);
// implicit_gemm won AlexNet conv1 and LeNet conv2 at batch 64 and the batch-1
// layers above 2^24 flops against the other rungs then measured (but on
// AlexNet conv3 n1 im2col_gemm measured 5 % faster); winograd_fused (round 2) won the three
// 3x3 layers at batch 64 among tessera's rungs
// (docs/results/convnet-h100-2026-11-28.json). The rules below follow those
// rows; a shape class the bench did not cover is "to be measured".
#pragma once

#include <cstdint>
#include <string_view>

#include "families/convnet/contract.hpp"
#include "families/convnet/resident_plan.hpp"

namespace tessera::conv_impl::policy {

struct Rule {
  std::string_view variant;
  std::string_view when;  // the shapes it applies to, in words
  bool (*applies)(const ConvSpec&);
  std::string_view gpu;       // where it was measured
  std::string_view measured;  // problem, % of the FP32 rate, ratio to cuDNN
  std::string_view source;    // the results file and the commit that chose it
};

inline bool every_shape(const ConvSpec&) { return true; }
// PREDICTED, not measured: 3x3 stride-1 layers of at least 2^32 flops
// with c and m >= 32 (the three batch-64 layers): winograd_f4x3's 4x fewer
// multiply-adds in one batched GEMM launch over its 36 positions beat
// winograd_fused's 2.25x (which ran 0.52-0.76x cuDNN there). Predicted
// (docs/convnet.md, "Winograd F(4x4, 3x3)"): ResNet 512->512 7^2 n64 ~0.16
// ms (1.2x cuDNN), AlexNet conv3 n64 ~0.21 ms (1.2x), ResNet 64->64 56^2
// n64 ~0.25 ms (1.05x). Small c or m: the transforms' traffic (36 (c + m)
// floats per tile) is not paid for by a short GEMM.
inline bool winograd_f4x3_large(const ConvSpec& s) {
  if (s.k != 3 || s.stride != 1 || s.c < 32 || s.m < 32 || s.flops() < double(std::uint64_t(1) << 32)) return false;
  const std::size_t tiles = s.n * ((s.ho + 3) / 4) * ((s.wo + 3) / 4);  // its supports(): 36 (c or m) tiles < 2^31
  return fits_int32(s) && 36.0 * double(s.c > s.m ? s.c : s.m) * double(tiles + 3) < double(std::uint64_t(1) << 31);
}

// 3x3 stride-1 layers over at least 512 2x2 output tiles (n * ceil(ho/2) *
// ceil(wo/2)): winograd_fused's 2.25x fewer multiply-adds pay for its
// transforms there (measured: fastest of tessera's rungs on all three n64
// layers and on ResNet 64->64 n1, 784 tiles: 0.0174 ms against implicit_gemm's
// 0.0198); at 49 and 16 tiles implicit_gemm measured 1.8x and 3.0x faster.
// 512 lies between; the exact crossover is not measured.
inline bool winograd_3x3_many_tiles(const ConvSpec& s) {
  const std::size_t tiles = s.n * ((s.ho + 1) / 2) * ((s.wo + 1) / 2);
  return s.k == 3 && s.stride == 1 && tiles >= 512;
}

// One image of a few input channels (LeNet-5 conv2 n1: c 6): im2col_gemm's
// unrolled matrix is small and its GEMM fills the GPU better than
// shared_tiled's per-output loops: 0.0076 ms (1.16x cuDNN) against 0.0116 in
// the final run, 0.0077 against 0.0116 in the first.
inline bool tiny_multichannel_image(const ConvSpec& s) {
  return s.n == 1 && s.c > 1 && s.k <= 11 && s.flops() <= double(1 << 24) && fits_int32(s);
}

// Layers of at most 2^24 flops (LeNet-5 conv1 at batch 64 and 1, conv2 at
// batch 1): a few microseconds of work, where shared_tiled's single plain
// launch measured faster than implicit_gemm's larger tiles (cuDNN: 1.00x on
// conv1 n64, 1.19x on conv1 n1, 0.76x on conv2 n1 in the final run). k <= 11
// and stride <= 4 keep its input patch (at most 71^2 floats) within its 48 KiB.
inline bool tiny_layer(const ConvSpec& s) {
  return s.flops() <= double(1 << 24) && s.k <= 11 && s.stride <= 4 && fits_int32(s);
}

// Layers of at most 2^25 flops whose smallest cell fits shared memory
// (LeNet-5's four bench layers): a few microseconds of work, where one launch
// of enough small blocks, each reading its image once, should beat
// implicit_gemm's split-k pair of launches and shared_tiled's per-filter
// re-reads. PREDICTED (resident_plan.hpp's model plus ~2.5 us of launch),
// not yet measured: conv2 n64 ~5 us against cuDNN's 9.4 (implicit_gemm
// 14.6), conv1 n64 ~4.5 us against 7.8, conv1 n1 and conv2 n1 ~3.5 us
// against 3.5 and 8.8.
inline bool small_resident_layer(const ConvSpec& s) {
  return s.flops() <= double(1 << 25) && resident::supports_resident_image(s);
}

inline constexpr Rule GPU_RULES[] = {
    {"resident_image", "at most 2^25 flops, the smallest cell within 48 KiB of shared memory", small_resident_layer,
     "H100 (predicted)",
     "predicted, to be measured: LeNet-5 conv2 n64 ~0.005 ms (~1.9x cuDNN's 0.0094), conv1 n64 ~0.0045 ms (~1.7x), "
     "conv1 n1 and conv2 n1 ~0.0035 ms (~1.0x and ~2.5x)",
     "resident_plan.hpp's cost model (session 32)"},
    {"im2col_gemm", "batch 1, c > 1, k <= 11, at most 2^24 flops", tiny_multichannel_image, "H100",
     "LeNet-5 conv2 n1: 0.0076 ms, 1.16x cuDNN (shared_tiled 0.0116 ms, 0.76x)",
     "docs/results/convnet-h100-2026-11-28.json"},
    {"shared_tiled", "at most 2^24 flops, k <= 11, stride <= 4", tiny_layer, "H100",
     "LeNet-5 conv1 n1: 0.0030 ms, 1.44x cuDNN (implicit_gemm 0.0071 ms, 0.61x); conv2 n1: 0.0116 ms, 1.34x "
     "(implicit_gemm 1.07x); conv1 n64: 0.0078 ms, 1.00x (implicit_gemm 0.94x)",
     "bench-convnet.txt, 2026-11-28 (round 1)"},
    {"winograd_f4x3", "k = 3, stride 1, c >= 32, m >= 32, at least 2^32 flops", winograd_f4x3_large, "H100",
     "PREDICTED, to be measured: ResNet-50 3x3 512->512 7^2 n64 ~0.16 ms (~1.2x cuDNN), AlexNet conv3 n64 ~0.21 "
     "ms (~1.2x), ResNet-50 3x3 64->64 56^2 n64 ~0.25 ms (~1.05x)",
     "docs/convnet.md (prediction, session 32)"},
    {"winograd_fused", "k = 3, stride 1, n * 2x2 tiles >= 512", winograd_3x3_many_tiles, "H100",
     "ResNet-50 3x3 64->64 56^2 n64: 0.346 ms, 0.76x cuDNN (winograd_f2x3 0.506, implicit_gemm 0.574); "
     "512->512 7^2 n64: 0.385 ms, 0.52x (winograd_f2x3 0.534); AlexNet conv3 n64: 0.432 ms, 0.58x "
     "(implicit_gemm 0.599)",
     "docs/results/convnet-h100-2026-11-28.json"},
    {"implicit_gemm", "every other shape", every_shape, "H100",
     "AlexNet conv1 n1 1.11x cuDNN, conv3 n1 1.85x, ResNet 64->64 n1 1.47x, 512->512 n1 2.08x, AlexNet conv1 "
     "n64 1.05x, conv3 n64 0.42x (0.598 ms vs winograd_f2x3 0.668 ms), LeNet conv2 n64 0.64x; other shapes to be "
     "measured",
     "bench-convnet.txt, 2026-11-28 (round 1)"},
};

// Without a GPU: the parallel CPU rung.
inline constexpr Rule CPU_RULES[] = {
    {"cpu_openmp", "every shape", every_shape, "-", "the only parallel CPU rung", "-"},
};

template <std::size_t N>
constexpr std::string_view first_applying(const Rule (&rules)[N], const ConvSpec& s) {
  for (const Rule& r : rules)
    if (r.applies(s)) return r.variant;
  return rules[N - 1].variant;
}

inline std::string_view pick(const ConvSpec& s, bool gpu) {
  return gpu ? first_applying(GPU_RULES, s) : first_applying(CPU_RULES, s);
}

}  // namespace tessera::conv_impl::policy
