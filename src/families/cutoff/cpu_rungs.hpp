// The CPU rungs of the cutoff ladder (ladder.cpp lists them) and the double
// references the harness and the tests check against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "families/cutoff/contract.hpp"

namespace tessera::cutoff_impl::cpu {

// Step 0: serial cell list (cells at least c / 2 wide, the 5^3 around a point),
// every pair term accumulated in double, rounded once to float.
void run_reference(const CutoffCall& call);
// Step 1: the same, OpenMP over lattice rows.
void run_openmp(const CutoffCall& call);

// What the harness checks against: V in double, the sum of |term| per point
// (the scale of the float sum's rounding), the sum of each pair's float
// rounding bound (cell_list.hpp's PairRounding: the cancellation in
// 1 - r^2 / c^2 near the cutoff) and the number of pairs within the cutoff
// (the cost model's pair evaluations).
struct Reference {
  std::vector<double> potential;
  std::vector<double> abs_sum;
  std::vector<double> rounding;
  std::vector<std::uint32_t> near;  // atoms within c of each point
  double pairs = 0;

  // How far a float potential may be from this one at point p:
  // 2^-24 (16 + 4 sqrt(k)) sum |terms| + 2 sum of the pairs' rounding bounds
  // (the factor 2: slack over the first-order bound). 0 only where no atom is
  // within c (nor rounding's reach of it).
  double tolerance(std::size_t p) const;
};
Reference reference_potential(const CutoffSpec& spec, const Atom* atoms);
// The same at the listed lattice points only (flat indices; entry q of each
// vector is points[q]'s; pairs counts the pairs at those points): the check
// of lattices too large for the whole reference.
Reference reference_at_points(const CutoffSpec& spec, const Atom* atoms, const std::vector<std::size_t>& points);

// Brute force over every atom for every point (the direct sum with the same
// smoothing), in double: the tests' check of the cell list on small systems.
std::vector<double> direct_smoothed_potential(const CutoffSpec& spec, const Atom* atoms);

}  // namespace tessera::cutoff_impl::cpu
