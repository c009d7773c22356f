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
// (the scale of each point's rounding error) and the number of pairs within
// the cutoff (the cost model's pair evaluations).
struct Reference {
  std::vector<double> potential;
  std::vector<double> abs_sum;
  std::vector<std::uint32_t> near;  // atoms within c of each point
  double pairs = 0;
};
Reference reference_potential(const CutoffSpec& spec, const Atom* atoms);

// Brute force over every atom for every point (the direct sum with the same
// smoothing), in double: the tests' check of the cell list on small systems.
std::vector<double> direct_smoothed_potential(const CutoffSpec& spec, const Atom* atoms);

}  // namespace tessera::cutoff_impl::cpu
