// tessera::coulomb_potential — the direct Coulomb sum on a lattice.
//
//   tessera::coulomb_potential(d_atoms, n_atoms, lattice, d_potential);          // the policy's variant
//   tessera::coulomb_potential(d_atoms, n_atoms, lattice, d_potential, {.variant = "gather"});
//
// For every lattice point p (index i + nx (j + ny k), tessera/atoms.hpp):
//
//   potential[p] = sum_i q_i / |p - r_i|
//
// with no constant factor: multiply by the Coulomb constant of your units
// (332.0636 kcal/mol·Å/e² for ångström and elementary charges) yourself. A
// pair closer than 1e-6 (in the lattice's unit) contributes nothing: the
// value at a point that coincides with an atom leaves that atom out.
// Lattice points sit at fma(i, spacing, origin) in float.
//
// Precision: float arithmetic, each point's sum accumulated in float. The
// error is stated relative to sum_i |q_i| / |p - r_i| (the sum's own scale):
// docs/coulomb.md gives each variant's, measured by `tessera bench coulomb`.
//
// GPU variants take device pointers; the cpu_ variants, reachable by name
// (and the default without a GPU), take host pointers. Synchronous: the call
// reads the atoms on the host first to check them (so it is not capturable
// into a CUDA graph) and returns once the potential is written.
//
// Errors throw tessera::Error before anything is written: a null pointer, a
// NaN or infinite coordinate or charge (the atom's index named), a lattice
// with no points, a spacing that is not positive and finite, a non-finite
// origin, an unknown variant, one that does not support the lattice, or
// memory of the wrong kind for the variant.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/atoms.hpp"
#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct CoulombOptions {
  std::string variant = {};  // empty: the variant the policy picks
  stream_t stream = nullptr;
  Workspace workspace = {};  // unused: no variant needs scratch
};

void coulomb_potential(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, float* potential,
                       const CoulombOptions& options = {});

// The name of the variant the public API picks for these arguments.
std::string coulomb_default_variant(std::size_t n_atoms, const Lattice& lattice);

}  // namespace tessera
