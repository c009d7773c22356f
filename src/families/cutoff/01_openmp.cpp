// Cutoff step 1: the cell-list reference, OpenMP over lattice rows (dynamic
// schedule: rows near the system's edge have fewer atoms to visit).
#include "families/cutoff/cell_list.hpp"
#include "families/cutoff/cpu_rungs.hpp"

namespace tessera::cutoff_impl::cpu {

void run_openmp(const CutoffCall& call) {
  const CutoffSpec& s = call.spec;
  const CellList cells(s, call.atoms);
  const auto rows = static_cast<long long>(s.lattice.ny * s.lattice.nz);
#pragma omp parallel for schedule(dynamic, 4)
  for (long long r = 0; r < rows; ++r) {
    const std::size_t j = std::size_t(r) % s.lattice.ny, k = std::size_t(r) / s.lattice.ny;
    float* out = call.potential + s.lattice.nx * std::size_t(r);
    row_sums(cells, s, j, k, [&](std::size_t i, const PointSums& p) { out[i] = float(p.value); });
  }
}

}  // namespace tessera::cutoff_impl::cpu
