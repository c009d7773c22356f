// Generated test systems for the cutoff problem and tests: a box of water at
// liquid density, and uniform or clustered random charges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tessera/atoms.hpp"

namespace tessera::cutoff_impl {

// Water's atom density: 0.0334 molecules/Å^3, three atoms each.
inline constexpr double WATER_ATOMS_PER_A3 = 0.1;

// n atoms of water (TIP3P charges: O -0.834, H +0.417; O-H 0.9572 Å, H-O-H
// 104.52°) in the box [0, box[0]] x [0, box[1]] x [0, box[2]]: oxygens on a
// jittered cubic grid at water's density, molecules randomly oriented. When
// n is not a multiple of 3 the last one or two atoms are ions (+1, then -1).
std::vector<Atom> water_box(std::size_t n, const double box[3], std::uint64_t seed);

// n atoms uniform in [lo, hi) per axis, charges uniform in [-1, 1).
std::vector<Atom> uniform_atoms(std::size_t n, const float lo[3], const float hi[3], std::uint64_t seed);

}  // namespace tessera::cutoff_impl
