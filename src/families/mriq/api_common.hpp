// Argument validation shared by the CUDA and CPU-only builds of the public
// MRI-Q API: everything but the NaN scan (which needs the memory kind) is
// checked here, before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "families/mriq/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/mriq.hpp"

namespace tessera::mriq_impl {

inline constexpr const char* WHO = "tessera::mri_q";

// A named array of the call: where it starts and how many floats it holds.
struct Array {
  const char* name;
  const float* data;
  std::size_t n;
};

struct Arrays {
  Array in[8];
  Array out[2];
};

inline Arrays arrays_of(const MriqCall& c) {
  const std::size_t k = c.spec.num_k, x = c.spec.num_x;
  return {{{"kx", c.k.kx, k}, {"ky", c.k.ky, k}, {"kz", c.k.kz, k}, {"phi_r", c.k.phi_r, k}, {"phi_i", c.k.phi_i, k},
           {"x", c.v.x, x}, {"y", c.v.y, x}, {"z", c.v.z, x}},
          {{"q_r", c.q_r, x}, {"q_i", c.q_i, x}}};
}

inline bool overlap(const Array& a, const Array& b) {
  if (a.n == 0 || b.n == 0) return false;
  const auto a0 = reinterpret_cast<std::uintptr_t>(a.data), b0 = reinterpret_cast<std::uintptr_t>(b.data);
  return a0 < b0 + b.n * sizeof(float) && b0 < a0 + a.n * sizeof(float);
}

// Null pointers for non-empty arrays, and outputs overlapping each other or
// an input.
inline void check_pointers(const MriqCall& c) {
  const Arrays a = arrays_of(c);
  for (const Array& arr : a.in)
    require(arr.n == 0 || arr.data != nullptr,
            fmt::format("{}: {} is a null pointer for {} elements", WHO, arr.name, arr.n));
  for (const Array& arr : a.out)
    require(arr.n == 0 || arr.data != nullptr,
            fmt::format("{}: {} is a null pointer for {} voxels", WHO, arr.name, arr.n));
  require(!overlap(a.out[0], a.out[1]),
          fmt::format("{}: the outputs q_r = {} and q_i = {} overlap ({} floats each): they must be separate arrays",
                      WHO, static_cast<const void*>(c.q_r), static_cast<const void*>(c.q_i), c.spec.num_x));
  for (const Array& o : a.out)
    for (const Array& i : a.in)
      require(!overlap(o, i), fmt::format("{}: the output {} overlaps the input {}: Q must not be written over the "
                                          "inputs",
                                          WHO, o.name, i.name));
}

// The first NaN or infinity of a host array, as an error.
inline void check_finite_host(const Array& a) {
  for (std::size_t i = 0; i < a.n; ++i)
    if (!std::isfinite(a.data[i]))
      throw Error(fmt::format("{}: {}[{}] is {}: every input must be finite", WHO, a.name, i,
                              std::isnan(a.data[i]) ? "NaN" : "infinite"));
}

// The variant (by name, or the policy's) for this call.
inline const MriqVariant& resolve(const MriqSpec& spec, const std::string& name) {
  const std::string chosen = name.empty() ? mri_q_default_variant(spec.num_k, spec.num_x) : name;
  const MriqVariant& v = variants_ladder().at(chosen, WHO);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {} samples", WHO, chosen, spec.num_k));
  return v;
}

inline MriqCall make_call(const float* kx, const float* ky, const float* kz, const float* phi_r, const float* phi_i,
                          std::size_t num_k, const float* x, const float* y, const float* z, std::size_t num_x,
                          float* q_r, float* q_i, const MriqOptions& o) {
  return {{num_k, num_x}, {kx, ky, kz, phi_r, phi_i}, {x, y, z}, q_r, q_i, nullptr, o.stream};
}

}  // namespace tessera::mriq_impl
