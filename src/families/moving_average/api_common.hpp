// Argument validation shared by the CUDA and CPU-only builds of the public
// moving_average API: everything is checked before anything runs or is
// written, and every error names the argument and its value.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>

#include "families/moving_average/contract.hpp"
#include "families/moving_average/policy.hpp"
#include "tessera/core/error.hpp"
#include "tessera/moving_average.hpp"

namespace tessera::moving_average_impl {

inline constexpr const char* WHO = "tessera::moving_average";

inline std::string describe(const MovingAverageSpec& s) {
  return fmt::format("{} n = {}, w = {}{}, edge {}", to_string(s.dtype), s.n, s.w, s.uniform ? " (uniform)" : "",
                     s.edge == Edge::zero ? "zero" : "clamp");
}

// Whether every weight equals the first (a box filter).
template <class T>
bool all_equal(std::span<const T> weights) {
  for (const T& x : weights)
    if (!(x == weights[0])) return false;
  return true;
}

// The checks on n, w and the weights alone (the workspace query makes them too).
inline void check_window(std::size_t n, std::size_t w) {
  require(w != 0, fmt::format("{}: weights is empty (w = 0): the window needs an odd number of weights, at least 1",
                              WHO));
  require(w % 2 == 1, fmt::format("{}: w = {} is even: the window must be odd (w/2 samples on each side of the "
                                  "output)",
                                  WHO, w));
  require(w <= n, fmt::format("{}: w = {} is wider than the input (n = {})", WHO, w, n));
}

template <class T>
void check_weights(std::span<const T> weights) {
  require(weights.data() != nullptr, fmt::format("{}: weights.data() is a null pointer (w = {})", WHO, weights.size()));
  for (std::size_t j = 0; j < weights.size(); ++j)
    require(std::isfinite(static_cast<double>(weights[j])),
            fmt::format("{}: weights[{}] = {} is not a finite number", WHO, j, static_cast<double>(weights[j])));
}

// The variant (by name or the policy's pick), checked against `spec`.
inline const MovingAverageVariant& resolve(const MovingAverageSpec& spec, const std::string& name, bool gpu) {
  std::string chosen = name;
  if (chosen.empty()) {
    chosen = std::string(policy::pick(gpu, spec.dtype == Dtype::f32, spec.w, spec.uniform));
    require(!chosen.empty(),
            fmt::format("{}: no GPU variant takes w = {} {} (widest: w = {}); a filter this wide is a convolution "
                        "for an FFT, or name variant 'cpu_openmp' with host pointers",
                        WHO, spec.w,
                        spec.dtype == Dtype::f32 ? "weights that are not all equal" : "on double samples",
                        spec.dtype == Dtype::f32 ? policy::SHARED_MAX_W : policy::TILED_MAX_W));
  }
  const MovingAverageVariant& v = variants_ladder().at(chosen, WHO);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", WHO, chosen, describe(spec)));
  return v;
}

// Every check of a call, in order; returns its spec.
template <class T>
MovingAverageSpec checked_spec(const T* in, std::size_t n, const T* out, std::span<const T> weights,
                               const MovingAverageOptions& o) {
  check_window(n, weights.size());
  check_weights(weights);
  require(in != nullptr, fmt::format("{}: in is a null pointer (n = {})", WHO, n));
  require(out != nullptr, fmt::format("{}: out is a null pointer (n = {})", WHO, n));
  const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
  const std::size_t bytes = n * sizeof(T);
  require(a + bytes <= b || b + bytes <= a,
          fmt::format("{}: in = {} and out = {} overlap ({} bytes each): the moving average is not in place, every "
                      "variant reads samples around an output after others may have been written",
                      WHO, static_cast<const void*>(in), static_cast<const void*>(out), bytes));
  return {dtype_of<T>(), n, weights.size(), o.edge, all_equal(weights)};
}

// Device bytes the API adds in front of a GPU variant's own workspace: the
// weights, uploaded there (256-byte aligned, like every workspace part).
inline std::size_t weights_slot(std::size_t w, std::size_t elem) { return (w * elem + 255) / 256 * 256; }

}  // namespace tessera::moving_average_impl

// The element types of the public call, instantiated by both builds.
#define TESSERA_MOVING_AVERAGE_INSTANTIATE_CALL(T) \
  template void moving_average<T>(const T*, std::size_t, T*, std::span<const T>, const MovingAverageOptions&);
