// Which variant tessera::conv_forward runs when options.variant is empty, as
// data: the rules in order (the first whose `applies` holds wins), each with
// the measurement that chose it. conv_forward_default_variant() reads them;
// docs/convnet.md says the same in prose.
//
// Measured on an H100 (tessera bench convnet,
// docs/results/convnet-h100-2026-11-28b.json): every rule below names the
// rows that chose it; a shape class the bench did not cover is "to be
// measured". Earlier rows of the same day (convnet-h100-2026-11-28.json)
// chose the rules the later run did not revisit.
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
// 3x3 stride-1 layers with c and m >= 32 over at least 128 4x4 output
// tiles (n * ceil(ho/4) * ceil(wo/4): the GEMM's width) and 2^27 flops:
// winograd_f4x3's 4x fewer multiply-adds in one batched GEMM launch over its
// 36 positions. Measured fastest of tessera's rungs on the three batch-64 3x3
// layers (ResNet 512->512 7^2: 256 tiles, 0.1997 ms, 0.99x cuDNN; AlexNet
// conv3: 1,024 tiles, 0.2440 ms, 1.03x; ResNet 64->64 56^2: 12,544 tiles,
// 0.2552 ms, 0.99x, against winograd_fused's 0.74x) and on ResNet 64->64 n1
// (196 tiles, 0.0150 ms, 1.93x, against winograd_fused's 0.0173). At 16
// and 4 tiles (AlexNet conv3 n1, ResNet 512->512 n1) each position's GEMM is
// narrower than one 64-wide tile and implicit_gemm measured faster (0.0310
// against 0.0330 ms; 0.0350 against 0.0775). 128 lies between 16 and 196
// (the crossover is not measured); 2^27 flops lies below the smallest
// winner (2.3e8: its four launches), smaller layers are not measured.
inline bool winograd_f4x3_wide(const ConvSpec& s) {
  if (s.k != 3 || s.stride != 1 || s.c < 32 || s.m < 32 || s.flops() < double(std::uint64_t(1) << 27)) return false;
  const std::size_t tiles = s.n * ((s.ho + 3) / 4) * ((s.wo + 3) / 4);
  // Its supports(): each operand's 36 planes (c or m by tiles) under 2^31 floats.
  return tiles >= 128 && fits_int32(s) &&
         36.0 * double(s.c > s.m ? s.c : s.m) * double(tiles + 3) < double(std::uint64_t(1) << 31);
}

// The other 3x3 stride-1 layers over at least 512 2x2 output tiles (n *
// ceil(ho/2) * ceil(wo/2)): fewer than 32 input or output channels, or too
// few 4x4 tiles for winograd_f4x3's GEMM. winograd_fused's 2.25x fewer
// multiply-adds in one launch: it measured faster than implicit_gemm on
// every 3x3 layer of at least 784 tiles (ResNet 64->64 n1: 0.0173 ms
// against 0.0198, docs/results/convnet-h100-2026-11-28b.json); at 49 and 16
// tiles implicit_gemm measured 1.8x and 3.0x faster. 512 lies between; the
// exact crossover is not measured.
inline bool winograd_3x3_many_tiles(const ConvSpec& s) {
  const std::size_t tiles = s.n * ((s.ho + 1) / 2) * ((s.wo + 1) / 2);
  return s.k == 3 && s.stride == 1 && tiles >= 512;
}

// One image of a few input channels (LeNet-5 conv2 n1: c 6): im2col_gemm's
// unrolled matrix is small and its GEMM fills the GPU better than
// shared_tiled's per-output loops: 0.0076 ms against 0.0116 in the final
// run, 0.0077 against 0.0116 in the first. resident_image (3x faster there)
// comes first; this rule keeps the batch-1 layers it declines.
inline bool tiny_multichannel_image(const ConvSpec& s) {
  return s.n == 1 && s.c > 1 && s.k <= 11 && s.flops() <= double(1 << 24) && fits_int32(s);
}

// Layers of at most 2^24 flops: a few microseconds of work in one plain
// launch. k <= 11 and stride <= 4 keep its input patch (at most 71^2
// floats) within its 48 KiB. The product's pick for one single-channel
// image (LeNet-5 conv1 n1: 0.0030 ms, 1.19x cuDNN, against resident_image's
// 0.0037 in the final run and 0.0033 in the first); the fallback for the
// other tiny layers resident_image declines.
inline bool tiny_layer(const ConvSpec& s) {
  return s.flops() <= double(1 << 24) && s.k <= 11 && s.stride <= 4 && fits_int32(s);
}

// Layers of at most 2^25 flops whose smallest cell fits shared memory
// (LeNet-5's layers): a few microseconds of work, where one launch of
// enough small blocks, each reading its image once, beats implicit_gemm's
// split-k pair of launches and shared_tiled's per-filter re-reads. Measured
// (the final run): conv1 n64 0.0050 ms (1.56x cuDNN), conv2 n64 0.0067
// (1.38x), conv2 n1 0.0046 (3.38x). One single-channel image is the
// exception: 6 blocks' worth of work for 132 SMs, where shared_tiled's
// plain launch measured faster in both runs (tiny_layer).
inline bool small_resident_layer(const ConvSpec& s) {
  if (s.n == 1 && s.c == 1 && tiny_layer(s)) return false;
  return s.flops() <= double(1 << 25) && resident::supports_resident_image(s);
}

inline constexpr Rule GPU_RULES[] = {
    {"resident_image",
     "at most 2^25 flops, the smallest cell within 48 KiB of shared memory, not one single-channel image",
     small_resident_layer, "H100",
     "LeNet-5 conv1 n64: 0.0050 ms, 1.56x cuDNN (shared_tiled 0.0078); conv2 n64: 0.0067 ms, 1.38x (implicit_gemm "
     "0.0125); conv2 n1: 0.0046 ms, 3.38x (im2col_gemm 0.0076)",
     "docs/results/convnet-h100-2026-11-28b.json"},
    {"im2col_gemm", "batch 1, c > 1, k <= 11, at most 2^24 flops", tiny_multichannel_image, "H100",
     "LeNet-5 conv2 n1: 0.0076 ms, 2.02x cuDNN (shared_tiled 0.0116 ms, 1.34x): the fallback for the batch-1 "
     "layers resident_image declines",
     "docs/results/convnet-h100-2026-11-28b.json"},
    {"shared_tiled", "at most 2^24 flops, k <= 11, stride <= 4", tiny_layer, "H100",
     "LeNet-5 conv1 n1: 0.0030 ms, 1.19x cuDNN (resident_image 0.0037 ms, 0.96x; implicit_gemm 0.0059 ms, 0.60x)",
     "docs/results/convnet-h100-2026-11-28b.json"},
    {"winograd_f4x3", "k = 3, stride 1, c >= 32, m >= 32, at least 128 4x4 output tiles and 2^27 flops",
     winograd_f4x3_wide, "H100",
     "ResNet-50 3x3 512->512 7^2 n64: 0.1997 ms, 0.99x cuDNN; AlexNet conv3 n64: 0.2440 ms, 1.03x; ResNet-50 3x3 "
     "64->64 56^2 n64: 0.2552 ms, 0.99x (winograd_fused 0.74x); 64->64 n1: 0.0150 ms, 1.93x (winograd_fused 1.66x)",
     "docs/results/convnet-h100-2026-11-28b.json"},
    {"winograd_fused", "k = 3, stride 1, n * 2x2 tiles >= 512", winograd_3x3_many_tiles, "H100",
     "ResNet-50 3x3 64->64 56^2 n1: 0.0173 ms, 1.66x cuDNN (implicit_gemm 0.0198); the rule keeps the 3x3 "
     "layers below winograd_f4x3's (few channels or few 4x4 tiles), to be measured",
     "docs/results/convnet-h100-2026-11-28b.json"},
    {"implicit_gemm", "every other shape", every_shape, "H100",
     "AlexNet conv1 n64: 0.6025 ms, 1.05x cuDNN; conv1 n1: 0.0229 ms, 1.11x; conv3 n1: 0.0310 ms, 1.84x "
     "(im2col_gemm 0.0297, winograd_f4x3 0.0330); ResNet-50 3x3 512->512 7^2 n1: 0.0350 ms, 2.08x "
     "(winograd_f4x3 0.0775)",
     "docs/results/convnet-h100-2026-11-28b.json"},
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
