// Cutoff step 0: the serial CPU reference (seed 000 "Cutoff Biomolecules": only
// the atoms within c count, smoothed). A cell list gives each point the 5^3
// cells around it; every term is accumulated in double and rounded once.
// Also the double references: reference_potential (value, sum of |terms|,
// pair count) and the brute-force direct sum with the same smoothing.
#include <cmath>

#include "families/cutoff/cell_list.hpp"
#include "families/cutoff/cpu_rungs.hpp"

namespace tessera::cutoff_impl::cpu {


void run_reference(const CutoffCall& call) {
  const CutoffSpec& s = call.spec;
  const CellList cells(s, call.atoms);
  for (std::size_t k = 0; k < s.lattice.nz; ++k)
    for (std::size_t j = 0; j < s.lattice.ny; ++j) {
      float* out = call.potential + s.lattice.nx * (j + s.lattice.ny * k);
      row_sums(cells, s, j, k, [&](std::size_t i, const PointSums& p) { out[i] = float(p.value); });
    }
}

Reference reference_potential(const CutoffSpec& s, const Atom* atoms) {
  Reference ref;
  const std::size_t points = s.lattice.points();
  ref.potential.resize(points);
  ref.abs_sum.resize(points);
  ref.rounding.resize(points);
  ref.near.resize(points);
  const CellList cells(s, atoms);
  const auto rows = static_cast<long long>(s.lattice.ny * s.lattice.nz);
  double pairs = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : pairs)
  for (long long r = 0; r < rows; ++r) {
    const std::size_t j = std::size_t(r) % s.lattice.ny, k = std::size_t(r) / s.lattice.ny;
    const std::size_t base = s.lattice.nx * std::size_t(r);
    row_sums(cells, s, j, k, [&](std::size_t i, const PointSums& p) {
      ref.potential[base + i] = p.value;
      ref.abs_sum[base + i] = p.abs;
      ref.rounding[base + i] = p.rounding;
      ref.near[base + i] = std::uint32_t(p.pairs);
      pairs += p.pairs;
    });
  }
  ref.pairs = pairs;
  return ref;
}

Reference reference_at_points(const CutoffSpec& s, const Atom* atoms, const std::vector<std::size_t>& points) {
  Reference ref;
  const std::size_t n = points.size();
  ref.potential.resize(n);
  ref.abs_sum.resize(n);
  ref.rounding.resize(n);
  ref.near.resize(n);
  const CellList cells(s, atoms);
  const Lattice& l = s.lattice;
  const double c2 = double(s.cutoff) * double(s.cutoff);
  double pairs = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : pairs)
  for (long long q = 0; q < static_cast<long long>(n); ++q) {
    const std::size_t p = points[std::size_t(q)];
    const std::size_t i = p % l.nx, j = (p / l.nx) % l.ny, k = p / (l.nx * l.ny);
    const PointSums sums = point_sums(cells, c2, lattice_coord(l.origin[0], l.spacing, i),
                                      lattice_coord(l.origin[1], l.spacing, j), lattice_coord(l.origin[2], l.spacing, k));
    ref.potential[std::size_t(q)] = sums.value;
    ref.abs_sum[std::size_t(q)] = sums.abs;
    ref.rounding[std::size_t(q)] = sums.rounding;
    ref.near[std::size_t(q)] = std::uint32_t(sums.pairs);
    pairs += sums.pairs;
  }
  ref.pairs = pairs;
  return ref;
}

std::vector<double> direct_smoothed_potential(const CutoffSpec& s, const Atom* atoms) {
  const Lattice& l = s.lattice;
  const double c2 = double(s.cutoff) * double(s.cutoff);
  std::vector<double> v(l.points(), 0.0);
  for (std::size_t k = 0; k < l.nz; ++k)
    for (std::size_t j = 0; j < l.ny; ++j)
      for_row(l, j, k, [&](std::size_t i, float x, float y, float z) {
        double sum = 0;
        for (std::size_t a = 0; a < s.n_atoms; ++a) {
          const double dx = double(atoms[a].x) - x, dy = double(atoms[a].y) - y, dz = double(atoms[a].z) - z;
          const double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < c2) sum += smoothed_term_double(atoms[a].q, r2, c2);
        }
        v[i + l.nx * (j + l.ny * k)] = sum;
      });
  return v;
}

}  // namespace tessera::cutoff_impl::cpu

namespace tessera::cutoff_impl::cpu {

double Reference::tolerance(std::size_t p) const {
  return 0x1p-24 * (16 + 4 * std::sqrt(double(near[p]))) * abs_sum[p] + 2 * rounding[p];
}

}  // namespace tessera::cutoff_impl::cpu
