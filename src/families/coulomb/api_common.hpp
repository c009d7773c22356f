// Argument checks shared by the CUDA and CPU-only builds of the public
// coulomb API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "families/coulomb/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/coulomb.hpp"

namespace tessera::coulomb_impl {

inline constexpr const char* WHO = "tessera::coulomb_potential";

// The lattice and pointers; the atoms' values are checked by check_atoms
// (on the host: the CUDA build copies them there first).
inline void check_lattice(const Lattice& L, const void* atoms, std::size_t n_atoms, const void* potential) {
  require(L.nx > 0 && L.ny > 0 && L.nz > 0,
          fmt::format("{}: the lattice is empty ({} x {} x {} points)", WHO, L.nx, L.ny, L.nz));
  require(std::isfinite(L.spacing) && L.spacing > 0,
          fmt::format("{}: lattice spacing {} is not a positive finite number", WHO, L.spacing));
  for (int d = 0; d < 3; ++d)
    require(std::isfinite(L.origin[d]), fmt::format("{}: lattice origin[{}] = {} is not finite", WHO, d, L.origin[d]));
  require(L.nx <= (std::size_t(1) << 24) && L.ny <= (std::size_t(1) << 24) && L.nz <= (std::size_t(1) << 24),
          fmt::format("{}: lattice {} x {} x {} has a side past 2^24 points (float coordinates would repeat)", WHO,
                      L.nx, L.ny, L.nz));
  require(potential != nullptr, fmt::format("{}: potential is a null pointer", WHO));
  require(atoms != nullptr || n_atoms == 0, fmt::format("{}: atoms is a null pointer for {} atoms", WHO, n_atoms));
}

inline void check_atoms(const Atom* atoms, std::size_t n_atoms) {
  for (std::size_t a = 0; a < n_atoms; ++a) {
    const Atom& at = atoms[a];
    require(std::isfinite(at.x) && std::isfinite(at.y) && std::isfinite(at.z),
            fmt::format("{}: atom {} has a non-finite coordinate ({}, {}, {})", WHO, a, at.x, at.y, at.z));
    require(std::isfinite(at.q), fmt::format("{}: atom {} has a non-finite charge {}", WHO, a, at.q));
  }
}

// The variant by name or the policy's, checked against the spec.
inline const CoulombVariant& resolve(const CoulombSpec& spec, const std::string& name) {
  const std::string chosen = name.empty() ? coulomb_default_variant(spec.n_atoms, spec.lattice) : name;
  const CoulombVariant& v = variants_ladder().at(chosen, WHO);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {} atoms on a {} x {} x {} lattice", WHO,
                                        chosen, spec.n_atoms, spec.lattice.nx, spec.lattice.ny, spec.lattice.nz));
  return v;
}

}  // namespace tessera::coulomb_impl
