// What the public stencil7 API shares between the CUDA and the CPU-only
// builds: argument validation (everything is checked before anything runs or
// is written) and the variant's resolution.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "families/stencil7/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/stencil.hpp"

namespace tessera::stencil7_impl {

inline constexpr const char* WHO = "tessera::stencil7";
inline constexpr const char* WORKSPACE_QUERY = "tessera::stencil7_workspace_bytes";

inline std::string describe(const Stencil7Spec& s) {
  return fmt::format("{} {} x {} x {}, {} sweeps", to_string(s.dtype), s.nx, s.ny, s.nz, s.sweeps);
}

// The spec, every scalar argument checked.
inline Stencil7Spec checked_spec(Dtype dtype, std::size_t nx, std::size_t ny, std::size_t nz, int sweeps, double c0,
                                 double c1, const char* who) {
  require(dtype == Dtype::f32 || dtype == Dtype::f64,
          fmt::format("{}: type {} is not supported (float or double)", who, to_string(dtype)));
  const std::pair<const char*, std::size_t> dims[] = {{"nx", nx}, {"ny", ny}, {"nz", nz}};
  for (const auto& [name, n] : dims)
    require(n >= 3, fmt::format("{}: {} = {} is smaller than 3: the 7-point stencil needs an interior cell in every "
                                "dimension",
                                who, name, n));
  require(nx <= SIZE_MAX / ny && nx * ny <= SIZE_MAX / nz / size_of(dtype),
          fmt::format("{}: the grid {} x {} x {} overflows size_t", who, nx, ny, nz));
  require(sweeps >= 0, fmt::format("{}: sweeps = {} is negative", who, sweeps));
  require(std::isfinite(c0), fmt::format("{}: c0 = {} is not a finite coefficient", who, c0));
  require(std::isfinite(c1), fmt::format("{}: c1 = {} is not a finite coefficient", who, c1));
  return {dtype, nx, ny, nz, sweeps, c0, c1};
}

inline const Stencil7Variant& resolve_variant(const Stencil7Spec& spec, const std::string& name, const char* who) {
  const std::string chosen =
      name.empty() ? stencil7_default_variant(spec.dtype, spec.nx, spec.ny, spec.nz, spec.sweeps) : name;
  const Stencil7Variant& v = variants_ladder().at(chosen, who);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", who, chosen, describe(spec)));
  return v;
}

// The pointer checks: non-null, and the two grids apart (the result is
// written while the input is still read).
inline void check_pointers(const Stencil7Spec& spec, const void* in, const void* out) {
  require(in != nullptr, fmt::format("{}: d_in is a null pointer for a {} x {} x {} grid", WHO, spec.nx, spec.ny,
                                     spec.nz));
  require(out != nullptr, fmt::format("{}: d_out is a null pointer for a {} x {} x {} grid", WHO, spec.nx, spec.ny,
                                      spec.nz));
  const std::size_t bytes = spec.cells() * size_of(spec.dtype);
  const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
  require(a != b, fmt::format("{}: d_in and d_out are the same pointer ({}); the sweeps are not in place: use a "
                              "separate output",
                              WHO, in));
  require(a + bytes <= b || b + bytes <= a,
          fmt::format("{}: d_in = {} and d_out = {} overlap ({} bytes each); use a separate output", WHO, in, out,
                      bytes));
}

}  // namespace tessera::stencil7_impl

// The element types of the public API, instantiated by both builds.
#define TESSERA_STENCIL7_INSTANTIATE(T)                                                                        \
  template void stencil7<T>(const T*, T*, std::size_t, std::size_t, std::size_t, int, T, T,                 \
                            const Stencil7Options&);
