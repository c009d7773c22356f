// The public convolution API's checks, separability and policy, the same in
// CUDA and CPU-only builds.
#include "families/convolution/api_common.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/gpu_present.hpp"
#include "families/convolution/policy.hpp"
#include "tessera/core/error.hpp"

namespace tessera::convolution_impl {

namespace {

constexpr std::size_t ALIGN = 256;
std::size_t align_up(std::size_t b) { return (b + ALIGN - 1) / ALIGN * ALIGN; }

void check_odd(const char* who, const char* name, std::size_t v) {
  require(v != 0, fmt::format("{}: {} = 0: a mask needs at least one tap", who, name));
  require(v % 2 == 1, fmt::format("{}: {} = {} is even: the mask needs a centre tap (an odd size)", who, name, v));
}

}  // namespace

void check_mask(const char* who, bool one_d, const float* mask, std::size_t mask_w, std::size_t mask_h,
                std::size_t width, std::size_t height) {
  check_odd(who, one_d ? "mask_width" : "mask_w", mask_w);
  if (!one_d) check_odd(who, "mask_h", mask_h);
  require(mask_w <= width, one_d ? fmt::format("{}: mask_width = {} is wider than the input (n = {})", who, mask_w, width)
                                 : fmt::format("{}: mask_w = {} is wider than the image (width = {})", who, mask_w, width));
  require(mask_h <= height, fmt::format("{}: mask_h = {} is taller than the image (height = {})", who, mask_h, height));
  require(mask != nullptr, fmt::format("{}: mask is a null pointer", who));
  for (std::size_t y = 0; y < mask_h; ++y)
    for (std::size_t x = 0; x < mask_w; ++x) {
      const float v = mask[y * mask_w + x];
      if (std::isfinite(v)) continue;
      throw Error(one_d ? fmt::format("{}: mask[{}] = {} is not a finite number", who, x, v)
                        : fmt::format("{}: mask[{}][{}] = {} is not a finite number", who, y, x, v));
    }
}

std::string pick(const ConvSpec& s, bool one_d, bool gpu) {
  if (!gpu) return std::string(policy::CPU_RULES[0].variant);
  const auto& ladder = ladder_for(one_d);
  auto fits = [&](std::string_view name) {
    const ConvVariant* v = ladder.find(name);
    return v != nullptr && v->supports(s);
  };
  if (one_d) {
    // The measured crossovers against register_blocked (policy.hpp).
    if (s.mask_w >= policy::FFT_MIN_TAPS && fits("fft_fused")) return "fft_fused";
    if (s.mask_w >= policy::OVERLAP_SAVE_MIN_TAPS && fits("fft_overlap_save")) return "fft_overlap_save";
    if (fits("register_blocked")) return "register_blocked";
    if (fits("fft_fused")) return "fft_fused";
    if (fits("fft_overlap_save")) return "fft_overlap_save";
    return "basic";
  }
  if (fits("pipelined_tiles")) return "pipelined_tiles";
  if (fits("register_blocked_wide")) return "register_blocked_wide";
  if (fits("separable")) return "separable";
  if (fits("register_blocked")) return "register_blocked";
  return "basic";
}

Request make_request(const char* who, bool one_d, const float* in, std::size_t width, std::size_t height,
                     const float* mask, std::size_t mask_w, std::size_t mask_h, const float* out,
                     const ConvOptions& o) {
  check_mask(who, one_d, mask, mask_w, mask_h, width, height);
  Request r{who, one_d, {}, std::nullopt, nullptr};
  ConvSpec& s = r.spec;
  s.width = width;
  s.height = height;
  s.pitch = one_d || o.pitch == 0 ? width : o.pitch;
  s.mask_w = mask_w;
  s.mask_h = mask_h;
  require(s.pitch >= width, fmt::format("{}: pitch = {} is smaller than width = {}", who, s.pitch, width));
  require(height <= (SIZE_MAX / sizeof(float) - width) / s.pitch,
          fmt::format("{}: {} rows of pitch {} overflow size_t", who, height, s.pitch));
  require(in != nullptr, fmt::format("{}: in is a null pointer", who));
  require(out != nullptr, fmt::format("{}: out is a null pointer", who));
  const std::size_t bytes = ((height - 1) * s.pitch + width) * sizeof(float);
  const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
  require(a + bytes <= b || b + bytes <= a,
          fmt::format("{}: in = {} and out = {} overlap ({} bytes each); the convolution is not in place: use a "
                      "separate output",
                      who, static_cast<const void*>(in), static_cast<const void*>(out), bytes));
  if (!one_d) {
    r.factors = find_separable(mask, mask_w, mask_h, o.separable_tolerance);
    s.separable = r.factors.has_value();
  }
  const std::string name = o.variant.empty() ? pick(s, one_d, api::gpu_present()) : o.variant;
  const ConvVariant& v = ladder_for(one_d).at(name, who);
  require(v.supports(s), fmt::format("{}: variant '{}' does not support {} x {} with a {} x {} mask{}", who, name,
                                     width, height, mask_w, mask_h,
                                     name == "separable" && !s.separable ? " (the mask is not separable)" : ""));
  r.variant = &v;
  return r;
}

std::size_t taps_offset(std::size_t variant_bytes) { return align_up(variant_bytes); }

std::size_t call_workspace_bytes(const ConvVariant& v, const ConvSpec& s) {
  if (v.info.backend == Backend::cpu) return 0;
  return taps_offset(v.workspace_bytes(s)) + (s.taps() + s.mask_w + s.mask_h) * sizeof(float);
}

}  // namespace tessera::convolution_impl

namespace tessera {

using convolution_impl::make_request;

std::size_t conv1d_workspace_bytes(std::size_t n, std::size_t mask_width, const ConvOptions& options) {
  // Sizes only: a stand-in mask of zeros passes the checks.
  std::vector<float> zeros(mask_width <= n ? mask_width : 0);
  const float* in = reinterpret_cast<const float*>(std::uintptr_t(16));
  const float* out = in + n + 16;
  const auto r = make_request("tessera::conv1d_workspace_bytes", true, in, n, 1, zeros.empty() ? nullptr : zeros.data(),
                              mask_width, 1, out, options);
  return convolution_impl::call_workspace_bytes(*r.variant, r.spec);
}

std::size_t conv2d_workspace_bytes(std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
                                   std::size_t mask_h, const ConvOptions& options) {
  const float* in = reinterpret_cast<const float*>(std::uintptr_t(16));
  const std::size_t pitch = options.pitch == 0 ? width : options.pitch;
  const float* out = in + height * pitch + 16;
  const auto r = make_request("tessera::conv2d_workspace_bytes", false, in, width, height, mask, mask_w, mask_h, out,
                              options);
  return convolution_impl::call_workspace_bytes(*r.variant, r.spec);
}

std::string conv1d_default_variant(std::size_t n, std::size_t mask_width) {
  convolution_impl::ConvSpec s;
  s.width = s.pitch = n;
  s.mask_w = mask_width;
  return convolution_impl::pick(s, true, api::gpu_present());
}

std::string conv2d_default_variant(std::size_t width, std::size_t height, const float* mask, std::size_t mask_w,
                                   std::size_t mask_h, const ConvOptions& options) {
  convolution_impl::check_mask("tessera::conv2d_default_variant", false, mask, mask_w, mask_h, width, height);
  convolution_impl::ConvSpec s;
  s.width = width;
  s.height = height;
  s.pitch = options.pitch == 0 ? width : options.pitch;
  s.mask_w = mask_w;
  s.mask_h = mask_h;
  s.separable = convolution_impl::find_separable(mask, mask_w, mask_h, options.separable_tolerance).has_value();
  return convolution_impl::pick(s, false, api::gpu_present());
}

bool conv_mask_separable(const float* mask, std::size_t mask_w, std::size_t mask_h, double tolerance) {
  require(mask != nullptr, "tessera::conv_mask_separable: mask is a null pointer");
  return convolution_impl::find_separable(mask, mask_w, mask_h, tolerance).has_value();
}

}  // namespace tessera
