// Shared by the coulomb tests: random systems (charges of both signs, atoms
// in and around the lattice, some on lattice points) and the comparison of a
// computed potential with the double reference, error measured against
// sum |q_i| / r_i (docs/coulomb.md).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "families/coulomb/contract.hpp"
#include "families/coulomb/cpu_rungs.hpp"
#include "tessera/atoms.hpp"

namespace coulomb_test {

using tessera::Atom;
using tessera::Lattice;

inline Lattice lattice(std::size_t nx, std::size_t ny, std::size_t nz, float spacing = 0.5f, float ox = 0,
                       float oy = 0, float oz = 0) {
  Lattice L;
  L.origin[0] = ox;
  L.origin[1] = oy;
  L.origin[2] = oz;
  L.spacing = spacing;
  L.nx = nx;
  L.ny = ny;
  L.nz = nz;
  return L;
}

inline std::string name_of(const Lattice& L, std::size_t atoms) {
  return std::to_string(atoms) + " atoms on " + std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" +
         std::to_string(L.nz);
}

// Atoms in the lattice's box plus one spacing around it; every 5th on a
// lattice point when on_points.
inline std::vector<Atom> random_atoms(const Lattice& L, std::size_t n, unsigned seed, bool on_points = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Atom> atoms(n);
  const std::size_t dims[3] = {L.nx, L.ny, L.nz};
  for (std::size_t a = 0; a < n; ++a) {
    float* c[3] = {&atoms[a].x, &atoms[a].y, &atoms[a].z};
    for (int d = 0; d < 3; ++d) {
      *c[d] = L.origin[d] - L.spacing + L.spacing * float(dims[d] + 1) * u(rng);
      if (on_points && a % 5 == 0) *c[d] = tessera::coulomb_impl::lattice_coord(L.origin[d], L.spacing, rng() % dims[d]);
    }
    atoms[a].q = (rng() & 1 ? 1.0f : -1.0f) * (0.1f + 0.9f * u(rng));
  }
  return atoms;
}

// Largest |got - V| / sum|q|/r over every point; `tol` fails the test.
inline double expect_matches_reference(const std::vector<float>& got, const std::vector<Atom>& atoms,
                                       const Lattice& L, double tol, const std::string& what) {
  double worst = 0;
  for (std::size_t p = 0; p < L.points(); ++p) {
    const auto ref = tessera::coulomb_impl::cpu::reference_at(atoms.data(), atoms.size(), L, p);
    const double err = ref.abs_sum > 0 ? std::fabs(got[p] - ref.value) / ref.abs_sum : std::fabs(got[p]);
    if (!(err <= tol)) {
      ADD_FAILURE() << what << ": point " << p << " got " << got[p] << ", reference " << ref.value << " (error "
                    << err << " of " << ref.abs_sum << ")";
      return err;
    }
    worst = std::max(worst, err);
  }
  return worst;
}

}  // namespace coulomb_test
