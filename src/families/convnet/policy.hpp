// Which variant tessera::conv_forward runs when options.variant is empty, as
// data: the rules in order (the first whose `applies` holds wins), each with
// the measurement that chose it. conv_forward_default_variant() reads them;
// docs/convnet.md says the same in prose.
//
// Not yet measured on a GPU: the rules below are the predictions the ladder
// was built for (implicit_gemm sizes its tile and k slices per shape itself,
// see 05_implicit_gemm.cu's plan_of), marked "to be measured". `tessera bench
// convnet` measures every rung beside cuDNN on the layers; a shape
// class where another rung wins gets its own rule above this one.
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
// Deep 3x3 stride-1 layers over enough 2x2 tiles that each of the 16 GEMMs
// is large (m x tiles x c >= 256 x 1024 x 256).
inline bool deep_3x3_many_tiles(const ConvSpec& s) {
  const std::size_t tiles = s.n * ((s.ho + 1) / 2) * ((s.wo + 1) / 2);
  return s.k == 3 && s.stride == 1 && s.c >= 256 && s.m >= 256 && tiles >= 1024;
}

inline constexpr Rule GPU_RULES[] = {
    {"winograd_f2x3", "k = 3, stride 1, c >= 256, m >= 256, n * tiles >= 1024", deep_3x3_many_tiles, "-",
     "to be measured: predicted to beat implicit_gemm by the 2.25x fewer multiply-adds where the 16 GEMMs are "
     "large (ResNet-50 512->512 at 7^2 and AlexNet conv3, batch 64)",
     "-"},
    {"implicit_gemm", "every shape", every_shape, "-",
     "to be measured: predicted >= 0.8x cuDNN FP32 on the LeNet, AlexNet and ResNet-50 layers at batch 1 and 64 "
     "(tessera bench convnet)",
     "-"},
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
