// Which variant tessera::conv_forward runs when options.variant is empty, as
// data: the rules in order (the first whose `applies` holds wins), each with
// the measurement that chose it. conv_forward_default_variant() reads them;
// docs/convnet.md says the same in prose.
//
// Measured on an H100 (tessera bench convnet, /work/notes/gpu-r1 results of
// 2026-11-28, bench-convnet.txt): implicit_gemm won every batch-1 layer and
// AlexNet conv1/conv3 and LeNet conv2 at batch 64 among tessera's rungs;
// winograd_f2x3 won the two ResNet-50 3x3 layers at batch 64 (64->64 at 56^2
// and 512->512 at 7^2) and lost AlexNet conv3 at batch 64 (256->384 at 13^2),
// which the round-1 rule sent to it. The rules below follow those rows; a shape
// class the bench did not cover is "to be measured".
#pragma once

#include <string_view>

#include "families/convnet/contract.hpp"

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
// Square 3x3 stride-1 layers (c == m, the ResNet blocks) over at least 1024
// 2x2 output tiles (n * ceil(ho/2) * ceil(wo/2)): each of winograd_f2x3's 16
// GEMMs is then large enough that its 2.25x fewer multiply-adds pay for the
// transforms. At batch 1 (784 and 16 tiles for the two ResNet layers) and on
// AlexNet conv3 (c 256 != m 384) implicit_gemm measured faster.
inline bool square_3x3_many_tiles(const ConvSpec& s) {
  const std::size_t tiles = s.n * ((s.ho + 1) / 2) * ((s.wo + 1) / 2);
  return s.k == 3 && s.stride == 1 && s.c == s.m && tiles >= 1024;
}

inline constexpr Rule GPU_RULES[] = {
    {"winograd_f2x3", "k = 3, stride 1, c == m, n * 2x2 tiles >= 1024", square_3x3_many_tiles, "H100",
     "ResNet-50 3x3 64->64 56^2 n64: 0.508 ms, 47.6 % of FP32, 0.50x cuDNN (implicit_gemm 0.574 ms); "
     "512->512 7^2 n64: 0.536 ms, 45.1 %, 0.37x cuDNN (implicit_gemm 0.652 ms)",
     "bench-convnet.txt, 2026-11-28 (round 1)"},
    {"implicit_gemm", "every other shape", every_shape, "H100",
     "every batch-1 layer (1.07x-2.08x cuDNN), AlexNet conv1 n64 (1.05x), conv3 n64 (0.598 ms vs winograd_f2x3 "
     "0.668 ms; 0.42x cuDNN), LeNet conv1/conv2 n64 (0.94x, 0.64x); other shapes to be measured",
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
