// Argument validation shared by the CUDA and CPU-only builds of the public
// convnet API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "families/convnet/contract.hpp"
#include "tessera/convnet.hpp"
#include "tessera/core/error.hpp"

namespace tessera::conv_impl {

inline constexpr const char* WHO = "tessera::conv_forward";

// The shape's checks: every dimension and the stride at least 1, pad >= 0,
// the filter no larger than the padded image, sizes whose products fit.
inline ConvSpec checked_spec(const ConvShape& s) {
  auto positive = [](std::size_t v, const char* name) {
    require(v > 0, fmt::format("{}: shape.{} = 0; every dimension must be at least 1", WHO, name));
  };
  positive(s.n, "n");
  positive(s.c, "c");
  positive(s.h, "h");
  positive(s.w, "w");
  positive(s.m, "m");
  positive(s.k, "k");
  require(s.stride > 0, fmt::format("{}: shape.stride = 0; the stride must be at least 1", WHO));
  require(s.pad >= 0, fmt::format("{}: shape.pad = {} is negative; the zero padding must be >= 0", WHO, s.pad));
  const std::size_t pad = std::size_t(s.pad);
  require(s.h < SIZE_MAX / 4 && s.w < SIZE_MAX / 4 && pad < SIZE_MAX / 8,
          fmt::format("{}: shape.h, shape.w or shape.pad is too large ({}, {}, {})", WHO, s.h, s.w, pad));
  require(s.k <= s.h + 2 * pad, fmt::format("{}: shape.k = {} is larger than the padded height h + 2 pad = {} + 2*{}",
                                            WHO, s.k, s.h, pad));
  require(s.k <= s.w + 2 * pad, fmt::format("{}: shape.k = {} is larger than the padded width w + 2 pad = {} + 2*{}",
                                            WHO, s.k, s.w, pad));
  // Every tensor's size in bytes must fit a size_t (checked products: no wrap-around).
  auto bytes_fit = [](std::initializer_list<std::size_t> dims) {
    std::size_t total = sizeof(float);
    for (std::size_t d : dims)
      if (__builtin_mul_overflow(total, d, &total)) return false;
    return true;
  };
  const ConvSpec spec = make_spec(s);
  require(bytes_fit({s.n, s.c, s.h, s.w}) && bytes_fit({s.m, s.c, s.k, s.k}) && bytes_fit({s.n, s.m, spec.ho, spec.wo}),
          fmt::format("{}: the tensors of the layer {} overflow size_t", WHO, describe(spec)));
  return spec;
}

// The named variant or the policy's, supporting the spec.
const ConvVariant& variant_for(const ConvSpec& spec, const std::string& name);

// The pointers: none null, y overlapping neither x nor w.
inline void check_pointers(const ConvSpec& s, const float* x, const float* w, const float* y) {
  require(x != nullptr, fmt::format("{}: x is a null pointer for the layer {}", WHO, describe(s)));
  require(w != nullptr, fmt::format("{}: w is a null pointer for the layer {}", WHO, describe(s)));
  require(y != nullptr, fmt::format("{}: y is a null pointer for the layer {}", WHO, describe(s)));
  auto overlap = [](const float* a, std::size_t na, const float* b, std::size_t nb) {
    const auto pa = reinterpret_cast<std::uintptr_t>(a), pb = reinterpret_cast<std::uintptr_t>(b);
    return pa < pb + nb * sizeof(float) && pb < pa + na * sizeof(float);
  };
  require(!overlap(y, s.y_elems(), x, s.x_elems()),
          fmt::format("{}: y = {} ({} floats) overlaps x = {} ({} floats); the output must be a separate buffer",
                      WHO, static_cast<const void*>(y), s.y_elems(), static_cast<const void*>(x), s.x_elems()));
  require(!overlap(y, s.y_elems(), w, s.w_elems()),
          fmt::format("{}: y = {} ({} floats) overlaps w = {} ({} floats); the output must be a separate buffer",
                      WHO, static_cast<const void*>(y), s.y_elems(), static_cast<const void*>(w), s.w_elems()));
}

}  // namespace tessera::conv_impl
