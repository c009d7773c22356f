// Coulomb step 1: the improved output-oriented loop (00_reference.cpp) with
// OpenMP over the rows of the lattice: each thread owns whole rows, so no two
// threads write the same point and no atomics are needed.
#include <cstdint>
#include <vector>

#include "families/coulomb/cpu_rungs.hpp"

namespace tessera::coulomb_impl::cpu {

void run_openmp(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  const std::vector<float> xs = row_coords(L);
  const auto rows = static_cast<std::int64_t>(L.ny * L.nz);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t r = 0; r < rows; ++r)
    output_oriented_row(call, std::size_t(r) % L.ny, std::size_t(r) / L.ny, xs.data());
}

}  // namespace tessera::coulomb_impl::cpu
