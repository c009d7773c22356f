// Which variant tessera::conv_forward runs when options.variant is empty, as
// data: the rules in order (the first whose `applies` holds wins), each with
// the measurement that chose it. conv_forward_default_variant() reads them;
// docs/convnet.md says the same in prose.
//
// Not yet measured on a GPU: the rule below is the prediction the ladder was
// built for (implicit_gemm sizes its tile and k slices per shape itself, see
// 05_implicit_gemm.cu's plan_of), marked "to be measured". `tessera bench
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

inline constexpr Rule GPU_RULES[] = {
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
