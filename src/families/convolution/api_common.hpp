// Argument validation and variant choice shared by the CUDA and CPU-only
// builds of the public convolution API: everything is checked before
// anything runs or is written.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "families/convolution/contract.hpp"
#include "families/convolution/separable.hpp"
#include "tessera/convolution.hpp"

namespace tessera::convolution_impl {

// One call of the public API, validated: its spec, the mask's factors when
// it is separable, and the variant that runs it.
struct Request {
  const char* who;  // "tessera::conv1d"
  bool one_d;       // which ladder: conv1d's or conv2d's
  ConvSpec spec;
  std::optional<SeparableTaps> factors;
  const ConvVariant* variant;
};

// Throws tessera::Error naming the argument and its value for an even or
// zero mask size, a mask wider or taller than the input, a null mask or a
// non-finite tap. `who` prefixes the message.
void check_mask(const char* who, bool one_d, const float* mask, std::size_t mask_w, std::size_t mask_h,
                std::size_t width, std::size_t height);

// The spec of a call (pitch defaulted, separability found), everything
// checked; the variant named by `options.variant` or the policy's pick.
Request make_request(const char* who, bool one_d, const float* in, std::size_t width, std::size_t height,
                     const float* mask, std::size_t mask_w, std::size_t mask_h, const float* out,
                     const ConvOptions& options);

// The policy's variant for a spec (policy.hpp's rules); gpu: whether a GPU
// is present.
std::string pick(const ConvSpec& spec, bool one_d, bool gpu);

// Scratch of a GPU call: the variant's workspace, then the mask and its
// factors on the device (both on 256-byte boundaries).
std::size_t taps_offset(std::size_t variant_bytes);
std::size_t call_workspace_bytes(const ConvVariant& v, const ConvSpec& spec);

}  // namespace tessera::convolution_impl
