// Shared by the cutoff tests: small random systems and the comparison of a
// float potential with a double one at the float direct sum's accuracy.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "families/cutoff/cpu_rungs.hpp"
#include "families/cutoff/water.hpp"
#include "tessera/atoms.hpp"

namespace tessera_test {

struct CutoffCase {
  std::string name;
  tessera::Lattice lattice;
  float cutoff;
  std::vector<tessera::Atom> atoms;
};

inline tessera::Lattice make_lattice(float ox, float oy, float oz, float s, std::size_t nx, std::size_t ny,
                                     std::size_t nz) {
  tessera::Lattice l;
  l.origin[0] = ox, l.origin[1] = oy, l.origin[2] = oz;
  l.spacing = s;
  l.nx = nx, l.ny = ny, l.nz = nz;
  return l;
}

// n random atoms in the lattice's box grown by `margin` on every side (so
// some lie outside the lattice), charges in [-1, 1).
inline std::vector<tessera::Atom> atoms_around(const tessera::Lattice& l, std::size_t n, float margin,
                                               std::uint64_t seed) {
  const std::size_t dims[3] = {l.nx, l.ny, l.nz};
  float lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = l.origin[a] - margin;
    hi[a] = l.origin[a] + l.spacing * float(dims[a] - 1) + margin;
  }
  return tessera::cutoff_impl::uniform_atoms(n, lo, hi, seed);
}

// The small systems every variant is checked on: atoms outside the lattice,
// overflow (hundreds of atoms in one bin), empty bins, lattices that are not
// multiples of the 8-point regions, nz = 1, a single point, no atoms.
inline std::vector<CutoffCase> small_cases() {
  std::vector<CutoffCase> c;
  {
    auto l = make_lattice(0, 0, 0, 0.5f, 19, 13, 10);
    c.push_back({"uniform_outside", l, 4.f, atoms_around(l, 700, 5.f, 1)});
  }
  {
    auto l = make_lattice(0, 0, 0, 0.5f, 24, 24, 9);
    const float clo[3] = {4.1f, 4.1f, 1.1f}, chi[3] = {4.9f, 4.9f, 1.9f};
    auto atoms = tessera::cutoff_impl::uniform_atoms(300, clo, chi, 2);  // one bin, 292 past its capacity
    const auto rest = atoms_around(l, 200, 3.f, 3);
    atoms.insert(atoms.end(), rest.begin(), rest.end());
    c.push_back({"overflow_cluster", l, 3.5f, atoms});
  }
  {
    auto l = make_lattice(0, 0, 0, 0.5f, 40, 40, 40);
    c.push_back({"sparse_empty_bins", l, 3.f, atoms_around(l, 7, 1.f, 4)});
  }
  {
    auto l = make_lattice(-2, 1, 3, 0.5f, 37, 29, 1);
    c.push_back({"slice_nz1", l, 5.f, atoms_around(l, 900, 5.5f, 5)});
  }
  {
    auto l = make_lattice(0.3f, -0.2f, 0.1f, 0.7f, 17, 9, 23);
    c.push_back({"odd_tiles_spacing07", l, 6.f, atoms_around(l, 1200, 6.f, 6)});
  }
  {
    auto l = make_lattice(1, 1, 1, 0.5f, 1, 1, 1);
    c.push_back({"one_point", l, 2.5f, atoms_around(l, 60, 3.f, 7)});
  }
  {
    auto l = make_lattice(0, 0, 0, 0.5f, 9, 8, 7);
    c.push_back({"no_atoms", l, 3.f, {}});
  }
  {
    const double box[3] = {29, 29, 29};  // 2400 atoms at water's density
    auto l = make_lattice(4, 4, 4, 0.5f, 41, 41, 41);
    c.push_back({"water_2400", l, 8.f, tessera::cutoff_impl::water_box(2400, box, 8)});
  }
  {
    auto l = make_lattice(0, 0, 0, 0.5f, 12, 12, 12);
    c.push_back({"cutoff_40_no_offsets", l, 40.f, atoms_around(l, 300, 41.f, 9)});
  }
  return c;
}

// |got - ref| <= ref.tolerance(p) at every point (the float sum's rounding
// plus each pair's cancellation near c; exactly 0 where no atom is near).
inline ::testing::AssertionResult within_float_sum(const std::vector<float>& got,
                                                   const tessera::cutoff_impl::cpu::Reference& ref) {
  if (got.size() != ref.potential.size()) return ::testing::AssertionFailure() << "size " << got.size();
  for (std::size_t p = 0; p < got.size(); ++p) {
    const double err = std::fabs(double(got[p]) - ref.potential[p]);
    const double tol = ref.tolerance(p);
    if (!(err <= tol))
      return ::testing::AssertionFailure() << "point " << p << ": got " << got[p] << ", reference " << ref.potential[p]
                                           << " (tolerance " << tol << ", " << ref.near[p] << " atoms within c)";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tessera_test
