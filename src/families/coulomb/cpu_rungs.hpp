// The CPU rungs of the coulomb ladder (ladder.cpp lists them) and the double
// reference the checks compare against.
#pragma once

#include <cstddef>
#include <vector>

#include "families/coulomb/contract.hpp"

namespace tessera::coulomb_impl::cpu {

// Step 0, the seed's scatter C: for each atom, add its contribution to every
// lattice point (the fewest operations: dy^2 + dz^2 hoisted per row; the
// whole lattice streamed once per atom).
void run_scatter(const CoulombCall& call);
// Step 0, the seed's gather C: for each lattice point, sum every atom
// (recomputes dy, dz per pair; writes each output once).
void run_gather(const CoulombCall& call);
// Step 0, the seed's improved output-oriented C: a row of points at a time,
// atoms outer, dy^2 + dz^2 once per atom and row, the row's accumulators in
// cache: the atoms stream through once per row, the output is written once.
void run_output_oriented(const CoulombCall& call);
// Step 1: the output-oriented loop with OpenMP over rows.
void run_openmp(const CoulombCall& call);

// Shared by the output-oriented rungs: one row (j, k), given the row's x
// coordinates `xs` (row_coords: computed once, not per pair).
void output_oriented_row(const CoulombCall& call, std::size_t j, std::size_t k, const float* xs);
std::vector<float> row_coords(const Lattice& lattice);

// The reference in double: V at lattice point `point` (index i + nx(j + ny k)),
// and alongside it sum_i |q_i| / r_i, the scale the checks divide errors by.
struct ReferenceValue {
  double value;
  double abs_sum;
};
ReferenceValue reference_at(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, std::size_t point);

}  // namespace tessera::coulomb_impl::cpu
