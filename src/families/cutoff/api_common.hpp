// Argument validation shared by the CUDA and CPU-only builds of the public
// cutoff API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "families/cutoff/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/cutoff.hpp"

namespace tessera::cutoff_impl {

inline constexpr const char* WHO = "tessera::cutoff_potential";

inline std::string describe(const CutoffSpec& s) {
  return fmt::format("{} atoms, lattice {} x {} x {} at {} Å, cutoff {} Å", s.n_atoms, s.lattice.nx, s.lattice.ny,
                     s.lattice.nz, s.lattice.spacing, s.cutoff);
}

// The lattice and the cutoff (not the data).
inline void check_spec(const CutoffSpec& s) {
  const Lattice& l = s.lattice;
  require(std::isfinite(s.cutoff) && s.cutoff > 0,
          fmt::format("{}: cutoff = {} must be a finite number > 0 (Å)", WHO, s.cutoff));
  require(l.nx > 0 && l.ny > 0 && l.nz > 0,
          fmt::format("{}: the lattice is empty ({} x {} x {} points)", WHO, l.nx, l.ny, l.nz));
  require(std::isfinite(l.spacing) && l.spacing > 0,
          fmt::format("{}: lattice.spacing = {} must be a finite number > 0 (Å)", WHO, l.spacing));
  require(l.ny <= SIZE_MAX / l.nx && l.nz <= SIZE_MAX / (l.nx * l.ny) && l.points() <= SIZE_MAX / sizeof(float),
          fmt::format("{}: the lattice's {} x {} x {} points overflow size_t", WHO, l.nx, l.ny, l.nz));
  for (int a = 0; a < 3; ++a)
    require(std::isfinite(l.origin[a]), fmt::format("{}: lattice.origin[{}] = {} is not finite", WHO, a, l.origin[a]));
}

// Host atoms: every coordinate and charge finite; the first bad one named.
inline void check_atoms(const Atom* atoms, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const Atom& a = atoms[i];
    if (std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z) && std::isfinite(a.q)) continue;
    throw Error(fmt::format("{}: atom {} is not finite (x = {}, y = {}, z = {}, q = {})", WHO, i, a.x, a.y, a.z, a.q));
  }
}

inline const CutoffVariant& resolve_variant(const CutoffSpec& spec, const std::string& name) {
  const std::string chosen = name.empty() ? cutoff_default_variant(spec.n_atoms, spec.lattice, spec.cutoff) : name;
  const CutoffVariant& v = variants_ladder().at(chosen, WHO);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", WHO, chosen, describe(spec)));
  return v;
}

inline void check_pointers(const CutoffSpec& s, const Atom* atoms, const float* potential) {
  require(atoms != nullptr || s.n_atoms == 0, fmt::format("{}: atoms is a null pointer for {} atoms", WHO, s.n_atoms));
  require(potential != nullptr, fmt::format("{}: potential is a null pointer for a {} x {} x {} lattice", WHO,
                                            s.lattice.nx, s.lattice.ny, s.lattice.nz));
}

}  // namespace tessera::cutoff_impl
